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
    case stoppedOnConflicts([Conflict])

    /// A stop rolls the source's transaction back.
    var rollsBack: Bool {
        if case .stoppedOnConflicts = self { return true }
        return false
    }
}

/// What an upload the source took did.
struct UploadOutcome: Sendable {
    var conflicts: [Conflict] = []
    var counts = RowCounts()
    /// Uploaded rows the source now holds exactly as the package does (no geometry edit
    /// either, so they cannot have left the area): the download need not bring them back.
    var settled = Set<RowKey>()
    /// Uploaded rows whose source row keeps values of its own (source changes merged with the
    /// local edit, or a conflict the source won): the package takes them, a download.
    var merged = Set<RowKey>()
}

extension SyncRun {
    /// The source's write transaction: the standing checked again, the upload (when the
    /// direction carries one) and the sync recorded, committed together; rolled back when the
    /// upload stops on conflicts.
    /// - Throws: ``SyncError`` when the package may no longer sync (noted at the source after
    ///   the rollback).
    func applyAtSource(_ changes: [PendingChange], syncID: String, decisions: ConflictDecisions) throws -> UploadStepOutcome {
        do {
            return try withRetryOnBusy {
                try Self.returning({ try uploadAndRecord(changes, syncID: syncID, decisions: decisions) },
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
    private func uploadAndRecord(_ changes: [PendingChange], syncID: String, decisions: ConflictDecisions) throws -> UploadStepOutcome {
        if try SyncSession.requireStanding(state, at: source, sourcePath: sourcePath, package: packageURL.path,
                                           note: false) { return .alreadyApplied }
        let step = options.direction.uploads ? try upload(changes, decisions: decisions) : .applied(UploadOutcome())
        guard case .applied(let outcome) = step else { return step }
        try source.recordConflicts(outcome.conflicts, syncID: syncID)
        try checkCancelled()  // the last safe point: the commit follows
        if !options.dryRun {
            try source.recordSync(replicaID: state.replicaID, syncID: syncID, generation: try source.position().generation)
        }
        try crash(.uploadApplied)
        return step
    }

    /// Reconciles every change, then writes them unless a conflict is left unresolved.
    func upload(_ changes: [PendingChange], decisions: ConflictDecisions) throws -> UploadStepOutcome {
        var outcome = UploadOutcome()
        let comparator = self.comparator
        let reconciler = Reconciler(policy: options.policy, decisions: decisions,
                                    equal: { comparator.equal($0, $1, $2, $3) },
                                    describe: { comparator.describe($0, $1, $2) })
        var plans: [UploadPlan] = []
        // Grown once: each doubling of tens of thousands of plans copies them all again.
        plans.reserveCapacity(changes.count)
        let discards = try ConflictStore.discards(in: package)
        try sourceRows.lockRows(of: changes, tables: tablesByName)
        for (index, change) in changes.enumerated() {
            options.progress?(.upload, index + 1, changes.count)
            if plans.count % Self.rowsBetweenChecks == 0 { try checkCancelled() }
            guard let table = tablesByName[SQLName(change.table)] else { continue }
            if discards.contains(RowKey(change.table, change.globalID)) {
                let result = RowReconciliation(conflicts: [discarded(change, in: table)])
                outcome.conflicts += result.conflicts
                plans.append((change, table, result))
                continue
            }
            let result = try reconcile(change, in: table, with: reconciler)
            outcome.conflicts += result.conflicts
            let geometryEdited = table.geometryColumn.map { change.changedColumns.contains($0) } ?? false
            // A filtered layer's row may have been edited out of its filter: the download decides.
            if result.leavesRowsEqual && !geometryEdited && change.operation != .insert && table.cut.filter == nil {
                outcome.settled.insert(RowKey(change.table, change.globalID))
            }
            if !result.leavesRowsEqual { outcome.merged.insert(RowKey(change.table, change.globalID)) }
            plans.append((change, table, result))
        }
        if plans.contains(where: { $0.result.isUnresolved }) { return .stoppedOnConflicts(outcome.conflicts) }
        // Links go last: the rows they point to may be inserted by this upload.
        let ordered = plans.contains(where: { mappingLinks.isMapping($0.table) })
            ? plans.filter { !mappingLinks.isMapping($0.table) } + plans.filter { mappingLinks.isMapping($0.table) }
            : plans
        try applyUpload(ordered, into: &outcome)
        if options.policy == .fail && outcome.conflicts.contains(where: { $0.kind == .constraint && $0.resolution == nil }) {
            return .stoppedOnConflicts(outcome.conflicts)
        }
        return .applied(outcome)
    }

    /// One local change reconciled with the source's row and its base.
    private func reconcile(_ change: PendingChange, in table: SyncTable, with reconciler: Reconciler) throws -> RowReconciliation {
        do {
            // A reprojected layer reconciles in the package's CRS, where its base is; what
            // goes up is transformed back.
            let sourceRow = try sourceRows.row(change.globalID, in: table).map { try projections.inPackageCRS($0, of: table) }
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
