/// Step 3 of a sync: the upload, in the source's write transaction. Each local change is
/// reconciled with the source's row and its base; unresolved conflicts under the `fail` policy
/// stop the sync with nothing changed, else the upload is written (`UploadApply.swift`) and the
/// sync recorded at the source, committed together.
import Geodatabase
import PackageFormat
import SQLite
import SourceDrivers

/// How the upload step ended.
enum UploadStepOutcome: EndsTransaction {
    /// The source took the upload and the sync's record (in a dry run, uncommitted).
    case applied(UploadOutcome)
    /// The source had applied this sync already (an interrupted run's): nothing went up again.
    case alreadyApplied
    /// Unresolved conflicts under the `fail` policy: rolled back, nothing changed at the source.
    case stoppedOnConflicts(UploadOutcome)

    /// A stop rolls the source's transaction back.
    var rollsBack: Bool {
        if case .stoppedOnConflicts = self { return true }
        return false
    }
}

/// What an upload did, or (stopped on conflicts) found.
struct UploadOutcome: Sendable {
    var conflicts: [Conflict] = []
    var counts = RowCounts()
    /// Uploaded rows the package takes back from the source, in upload order: all but those
    /// the source now holds exactly as the package does (no geometry edit either, so they
    /// cannot have left the area).
    var toBring: [UploadedRow] = []
    /// How many changes the upload carried.
    var carriedCount = 0
    /// Change records that changed nothing, for the package to forget.
    var unchanged: [UnchangedEdit] = []

    /// Adds what another part of the upload did and found after this part's.
    mutating func merge(_ other: UploadOutcome) {
        conflicts += other.conflicts
        counts.add(other.counts)
        toBring += other.toBring
        carriedCount += other.carriedCount
        unchanged += other.unchanged
    }
}

/// An uploaded row the download brings back.
struct UploadedRow: Sendable {
    var key: RowKey
    var held: Held

    /// What the source holds of the row after the upload.
    enum Held: Sendable {
        /// The package's row as the package holds it: reconciled to equal rows and written
        /// without a refusal.
        case asSent
        /// As sent, and the package's row as the upload sent it meets the package's area (a
        /// layer whose rows belong by their geometry alone): the download need not read it.
        case asSentInArea
        /// Values of its own (source changes merged with the local edit, or a conflict the
        /// source won): what comes down counts as downloaded.
        case merged
        /// Not known here: a row an earlier, interrupted run uploaded, a discarded change, a
        /// row the source refused at some try.
        case unknown

        var isAsSent: Bool { self == .asSent || self == .asSentInArea }
    }
}

extension SyncRun {
    /// The source's write transaction: the standing checked again, the upload (when the
    /// direction carries one) and the sync recorded, committed together; rolled back when the
    /// upload stops on conflicts.
    /// - Throws: ``SyncError`` when the package may no longer sync (noted at the source after
    ///   the rollback).
    func applyAtSource(_ carried: CarriedChanges, syncID: String, decisions: ConflictDecisions) throws -> UploadStepOutcome {
        do {
            return try withRetryOnBusy {
                try Self.returning({ try uploadAndRecord(carried, syncID: syncID, decisions: decisions) },
                                   in: { try source.withApplyContext(replicaID: state.replicaID, syncID: syncID, $0) })
            }
        } catch let error as SyncError where [.staleCopy, .restoredSource, .unregistered].contains(error.kind) {
            if !options.dryRun, case .refused(let refusal)? = try? source.standing(of: state.history) {
                try? source.noteRefusal(replicaID: state.replicaID, syncID: syncID, refusal)
            }
            throw error
        }
    }

    /// The body of the source's write transaction (see ``applyAtSource(_:syncID:decisions:)``).
    private func uploadAndRecord(_ carried: CarriedChanges, syncID: String, decisions: ConflictDecisions) throws -> UploadStepOutcome {
        forgetTablesHeldAsSent()
        if try SyncSession.requireStanding(state, at: source, sourcePath: sourcePath, package: packageURL.path,
                                           note: false) { return .alreadyApplied }
        let step = options.direction.uploads ? try upload(carried, decisions: decisions) : .applied(UploadOutcome())
        guard case .applied(let outcome) = step else { return step }
        try source.recordConflicts(outcome.conflicts, syncID: syncID)
        try checkCancelled()  // the last safe point: the commit follows
        if !options.dryRun {
            try source.recordSync(replicaID: state.replicaID, syncID: syncID, generation: try source.position().generation)
        }
        try crash(.uploadApplied)
        return step
    }

    /// Rows an upload reads from the source and writes to it at a time: a batch is one round
    /// trip to a server, and what is held is one batch's rows.
    static let uploadBatchSize = 1_000

    /// Reconciles every change and writes it as it goes, a batch at a time. Once a conflict is
    /// left unresolved nothing more is written and the rest is only reconciled, so that the
    /// stop reports every conflict; the source's transaction is then rolled back.
    ///
    /// Links are reconciled first, before any row is written (a link's source row is read as
    /// the global ids of the rows it links, which the upload may delete), and written last
    /// (the rows they link may be inserted by the upload); their conflicts are reported after
    /// the other rows', as the links come after them.
    func upload(_ carried: CarriedChanges, decisions: ConflictDecisions) throws -> UploadStepOutcome {
        var upload = StreamedUpload()
        let comparator = self.comparator
        let reconciler = Reconciler(policy: options.policy, decisions: decisions,
                                    equal: { comparator.equal($0, $1, $2, $3) },
                                    describe: { comparator.describe($0, $1, $2) })
        let discards = try ConflictStore.discards(in: package)
        try sourceRows.lockRows(of: carried)
        var links = StreamedUpload()
        var linkPlans: [[UploadPlan]] = []
        var progress = (done: 0, of: carried.recordCount)
        links.outcome.unchanged = try carried.forEachBatch(of: Self.uploadBatchSize, in: { [mappingLinks] in mappingLinks.isMapping($0) }) { table, batch in
            linkPlans.append(try reconcile(batch, of: table, discards: discards, with: reconciler, into: &links, &progress))
        }
        upload.stopping = links.stopping
        upload.outcome.unchanged = try carried.forEachBatch(of: Self.uploadBatchSize, in: { [mappingLinks] in !mappingLinks.isMapping($0) }) { table, batch in
            let plans = try reconcile(batch, of: table, discards: discards, with: reconciler, into: &upload, &progress)
            if !upload.stopping { try applyBatch(plans, into: &upload) }
        }
        upload.outcome.merge(links.outcome)
        if !upload.stopping {
            for plans in linkPlans { try applyBatch(plans, into: &upload) }
        }
        if upload.stopping { return .stoppedOnConflicts(upload.outcome) }
        try applyWaiting(into: &upload)
        upload.forgetRefusedRowsAsSent()
        if options.policy == .fail && upload.outcome.conflicts.contains(where: { $0.kind == .constraint && $0.resolution == nil }) {
            return .stoppedOnConflicts(upload.outcome)
        }
        return .applied(upload.outcome)
    }

    /// Reconciles one batch of one table's changes with the source's rows, read together.
    private func reconcile(_ batch: [PendingChange], of table: SyncTable, discards: Set<RowKey>, with reconciler: Reconciler,
                           into upload: inout StreamedUpload, _ progress: inout (done: Int, of: Int)) throws -> [UploadPlan] {
        try checkCancelled()
        var plans: [UploadPlan] = []
        plans.reserveCapacity(batch.count)
        for (change, sourceRow) in zip(batch, try sourceRows.rows(batch.map(\.globalID), in: table)) {
            upload.outcome.carriedCount += 1
            progress.done += 1
            options.progress?(.upload, progress.done, progress.of)
            let key = RowKey(change.table, change.globalID)
            let plan: UploadPlan
            if discards.contains(key) {
                plan = (change, table, RowReconciliation(conflicts: [discarded(change, in: table)]))
                upload.outcome.toBring.append(UploadedRow(key: key, held: .unknown))
            } else {
                plan = (change, table, try reconcile(change, in: table, sourceRow: sourceRow, with: reconciler))
                try noteForDownload(plan, into: &upload.outcome)
            }
            upload.outcome.conflicts += plan.result.conflicts
            if plan.result.isUnresolved { upload.stopping = true }
            plans.append(plan)
        }
        return plans
    }

    /// What the download does with an uploaded row: nothing when the source then holds it
    /// exactly as the package does (no geometry edit either, so it cannot have left the area;
    /// a filtered layer's row may have been edited out of its filter, so the download decides).
    private func noteForDownload(_ plan: UploadPlan, into outcome: inout UploadOutcome) throws {
        let (change, table, result) = plan
        let geometryEdited = table.geometryColumn.map { change.changedColumns.contains($0) } ?? false
        if result.leavesRowsEqual && !geometryEdited && change.operation != .insert && table.cut.filter == nil { return }
        let held: UploadedRow.Held = result.leavesRowsEqual ? try asSentHeld(change, in: table) : .merged
        outcome.toBring.append(UploadedRow(key: RowKey(change.table, change.globalID), held: held))
    }

    /// A row sent as the package holds it, of a table whose rows the download does not read
    /// back (``findTablesHeldAsSent(scope:)``: no filter, no relationship, the source stores
    /// what it is sent), is judged against the area now, from the row in hand. Any other row,
    /// and one whose geometry the test cannot take (the source may still refuse it, which is
    /// that row's conflict, not the sync's failure), is left to the download.
    private func asSentHeld(_ change: PendingChange, in table: SyncTable) throws -> UploadedRow.Held {
        guard change.operation != .delete, let current = change.current,
              try tablesHeldAsSent().contains(table.sqlName) else { return .asSent }
        let scope = try downloadScope()
        // Only the geometry test can fail here; the download runs it again on the package's row.
        guard let inArea = try? scope.contains(current, of: table) else { return .asSent }
        return inArea ? .asSentInArea : .asSent
    }

    /// One local change reconciled with the source's row (read with its batch) and its base.
    private func reconcile(_ change: PendingChange, in table: SyncTable, sourceRow read: Result<RowValues?, SyncError>,
                           with reconciler: Reconciler) throws -> RowReconciliation {
        do {
            // A reprojected layer reconciles in the package's CRS, where its base is; what
            // goes up is transformed back.
            let sourceRow = try read.get().map { try projections.inPackageCRS($0, of: table) }
            // Links of a mapping table reconcile as the global ids of the rows they point to.
            var change = change
            change.base = try mappingLinks.byGlobalID(packageRow: change.base, of: table)
            change.current = try mappingLinks.byGlobalID(packageRow: change.current, of: table)
            var result = reconciler.reconcile(change, in: table, sourceRow: try mappingLinks.byGlobalID(sourceRow: sourceRow, of: table))
            result.sourceAction = try projections.inSourceCRS(result.sourceAction, of: table)
            return result
        } catch let error as SyncError where error.kind == .unsupportedLayer {
            // A geometry PROJ cannot transform is this row's problem, not the sync's.
            return RowReconciliation(conflicts: [Conflict(table: table.name, globalID: change.globalID, column: table.geometryColumn,
                                                          kind: .constraint, packageValue: change.operation.rawValue,
                                                          message: error.message)])
        }
    }

    /// The record of a local change `resolve --take source` discarded (one the source cannot
    /// take): nothing goes up, the source's row comes down, and the package's row as it was is
    /// kept in the conflict record.
    func discarded(_ change: PendingChange, in table: SyncTable) -> Conflict {
        let comparator = self.comparator
        let image = Reconciler.rowImage(change.current, table, describe: { comparator.describe($0, $1, $2) })
        return Conflict(table: table.name, globalID: change.globalID, column: nil, kind: .constraint,
                        packageValue: image ?? "(deleted)", resolution: .source, resolvedBy: "decision",
                        message: "the local \(change.operation.rawValue) was discarded by decision; the source's row comes down")
    }
}
