/// One sync of a package with its source: the atomic, retry-safe protocol across two databases.
///
/// 1. Package: record a pending sync id and the change-log position it uploads through, and
///    commit that before touching the source (a re-run of an interrupted sync finds them).
/// 2. Package: take the write lock (BEGIN IMMEDIATE) for the rest, so no edit slips in between
///    reading the changes and clearing them.
/// 3. Source, in one IMMEDIATE transaction (waiting while other writers finish): if the sync
///    id is recorded as applied, skip to 4. Otherwise reconcile each local change with the
///    source row and its base; with unresolved conflicts, roll back, record them in the
///    package and stop. Else apply the upload (tagged with the replica and sync id, so it is
///    not echoed back), record the sync id and the conflicts, commit.
/// 4. Package, still in its transaction: bring the source's rows for every uploaded row and for
///    every source change since the package's generation (not the package's own), keeping
///    rows in the area, removing those that left; clear the uploaded changes; record
///    conflicts; advance the generation; commit.
///
/// Killed anywhere, the re-run converges: before 3 commits nothing happened at the source
/// (the same id is simply used); after, the id is found applied and only 4 is redone, and 4
/// is computed from the source's current rows, so it gives the same result.
import Foundation
import Geodatabase
import Geometry
import PackageFormat
import SQLite

/// Runs syncs of one package.
public final class SyncSession {
    public let packageURL: URL
    public let options: SyncOptions
    /// Page cache per database during a sync, in KiB: two of them stay well under 256 MB.
    static let cacheKiB = 16_384

    /// - Parameter package: the package directory (`AREA.pkg`), or its `data.gpkg`.
    public init(package: URL, options: SyncOptions = SyncOptions()) {
        packageURL = package
        self.options = options
    }

    /// Runs the sync.
    /// - Returns: the report; its status says whether conflicts stopped it or left rows pending.
    /// - Throws: ``SyncError`` for a package or source that cannot sync (missing, unregistered,
    ///   schema changed); `SQLiteError` / `GeodatabaseError` for failures underneath. Nothing
    ///   is half-applied on either side.
    public func run() throws -> SyncReport {
        let files = try PackageFiles(packageURL)
        if !options.dryRun && !DryRunCopies.isWritable(files.data.path) {
            throw SyncError(.notAPackage, "\(files.data.path) is read-only (the file or its directory): a sync writes "
                + "the package; run 'pkgbuild sync --dry-run' to see what it would do")
        }
        let copies = DryRunCopies(dryRun: options.dryRun)
        let package = try GeoPackage(path: try copies.path(for: files.data.path, role: "package"), busyTimeout: options.busyTimeout)
        let stored = try PackageSyncState.read(package.connection)
        let sourcePath = try options.source ?? stored.source ?? files.manifest?.source.location ?? {
            throw SyncError(.source, "\(packageURL.path): no --source given and the package has no manifest naming one")
        }()
        guard FileManager.default.fileExists(atPath: sourcePath) else {
            throw SyncError(.source, "source \(sourcePath) does not exist")
        }
        let source = try GeoPackage(path: try copies.path(for: sourcePath, role: "source"), busyTimeout: options.busyTimeout)
        // A sync rewrites many pages of both files: a larger page cache writes each once.
        for connection in [package.connection, source.connection] {
            try connection.execute("PRAGMA cache_size = -\(Self.cacheKiB)")
            try connection.execute("PRAGMA temp_store = MEMORY")
        }
        let sourceGDB = SourceGeodatabase(connection: source.connection)
        guard try sourceGDB.isEnabled() else {
            throw SyncError(.source, "source \(sourcePath) is not sync-enabled")
        }
        // A change log damaged past its CHECK stops the sync before either side is written.
        let tracking = PackageChangeTracking(connection: package.connection)
        try tracking.requireKnownOperations()
        var state = stored
        if options.reattach {
            guard !options.dryRun else { throw SyncError(.invalidArgument, "--reattach cannot be a dry run: it registers a new replica") }
            state = try Reattach.registerAnew(state, package: package.connection, packageName: packageURL.lastPathComponent,
                                             at: sourceGDB)
        } else {
            // Checked before anything is written on either side, and again in the source's
            // write transaction (another copy of the package may sync in between).
            try Self.requireStanding(state, at: sourceGDB, sourcePath: sourcePath, package: packageURL.path,
                                     note: !options.dryRun)
        }
        guard let replica = try sourceGDB.replica(id: state.replicaID) else {
            throw SyncError(.unregistered, "replica \(state.replicaID) is not registered at \(sourcePath)")
        }
        let scope = RegisteredScope(replica)
        state = scope.applied(to: state)
        try Self.checkCancelled(options)
        if options.direction.downloads {
            try sourceGDB.requireKnownOperations(since: state.sourceGeneration, excludingReplica: state.replicaID,
                                                 tables: try tracking.trackedTables().map(\.name))
        }
        // Columns added at the source come in first: the schemas read next are the sync's.
        try SchemaMigration.apply(try SchemaMigration.plan(package: package.connection, source: source.connection),
                                  package: package.connection, source: source.connection, dryRun: options.dryRun)
        // Each schema read once, before any write; one GEOS and one PROJ context for the whole
        // sync, which runs on this thread.
        let setup = try SyncSetup(package: package.connection, source: source.connection, state: state, scope: scope,
                                  manifest: files.manifest)
        let run = SyncRun(session: self, package: package.connection, source: source.connection, state: state,
                          tables: setup.tables, relationships: setup.packageSchema.relationships, areas: setup.areas,
                          projections: setup.projections, sourcePath: sourcePath, geos: setup.geos)
        if options.reattach {
            try run.markDifferencesForReattach()
            try files.recordReplica(state.replicaID)
        }
        // `create` registers the replica as pending, renames the package into place, then
        // activates it; a re-attach registers it pending until the package took it. A crash
        // in between leaves a complete package whose replica is still pending; the package in
        // hand proves the build finished, so activate it.
        if replica.state == .pending && !options.dryRun {
            try sourceGDB.activateReplica(id: state.replicaID)
        }
        // The copies (a dry run's on read-only files) live until the run is over.
        var report = try withExtendedLifetime(copies) { try run.execute() }
        report.notes += copies.notes
        if options.reattach { report.reattachedFrom = stored.replicaID }
        return report
    }
}

/// The state of one run of the protocol.
final class SyncRun {
    let options: SyncOptions
    let packageURL: URL
    let package: Connection
    let source: Connection
    let state: PackageSyncState
    let tables: [SyncTable]
    let tablesByName: [String: SyncTable]
    let areas: [String: Geometry]
    let projections: LayerProjections
    let relationships: [Relationship]
    let mappingLinks: MappingLinks
    let sourcePath: String
    let comparator: ValueComparator
    let geos: GEOSContext
    let packageRows: RowStore
    let sourceRows: RowStore

    init(session: SyncSession, package: Connection, source: Connection, state: PackageSyncState,
         tables: [SyncTable], relationships: [Relationship], areas: [String: Geometry], projections: LayerProjections,
         sourcePath: String, geos: GEOSContext) {
        options = session.options
        packageURL = session.packageURL
        self.package = package
        self.source = source
        self.state = state
        self.tables = tables
        tablesByName = Dictionary(tables.map { ($0.name.lowercased(), $0) }, uniquingKeysWith: { a, _ in a })
        self.areas = areas
        self.projections = projections
        self.relationships = relationships
        mappingLinks = MappingLinks(relationships: relationships, tables: tables, package: package, source: source)
        self.sourcePath = sourcePath
        self.geos = geos
        comparator = ValueComparator(context: geos)
        packageRows = RowStore(connection: package)
        sourceRows = RowStore(connection: source)
    }

    /// Rows whose local change stays pending after this sync: the download leaves them be.
    var pendingRows = Set<RowKey>()
    /// Pending rows the download had a source change for: the next download brings them.
    var deferred = Set<RowKey>()
    /// The source committed this sync's upload (or had it already): from here on the sync
    /// runs to its end (`SyncCancellation`).
    var sourceCommitted = false

    func crash(_ point: SyncCrashPoint) throws {
        try options.crashHook?(point)
    }

    /// Ends a dry run by rolling the package back, carrying the report out.
    struct DryRunFinished: Error { var report: SyncReport }
    /// Ends the source transaction of a sync stopped on conflicts, carrying what was found.
    struct StoppedOnConflicts: Error { var outcome: UploadOutcome }

    func execute() throws -> SyncReport {
        let tracking = PackageChangeTracking(connection: package)
        var syncID = state.pendingSyncID ?? GlobalID.make()
        var throughPosition = state.pendingPosition ?? 0
        try checkCancelled()

        // 1. Record the pending sync before the source is touched (a dry run records nothing).
        if options.dryRun {
            throughPosition = try tracking.position()
        } else if state.pendingSyncID == nil {
            try package.withTransaction(.immediate) {
                throughPosition = try tracking.position()
                try PackageSyncState.begin(syncID: syncID, position: throughPosition, in: package)
            }
            try crash(.pendingRecorded)
        }
        syncID = state.pendingSyncID ?? syncID

        // 2. The package's transaction, to the end: its write lock keeps edits out between
        // reading the changes and clearing them, and its apply context keeps the download's
        // writes out of the change log. It is the outermost transaction, so SQLite needs no
        // savepoint journal for it.
        do {
            return try withRetryOnBusy {
                try tracking.withoutTracking {
                    try syncInPackageTransaction(syncID: syncID, throughPosition: throughPosition, tracking: tracking)
                }
            }
        } catch let finished as DryRunFinished {
            return finished.report
        } catch let stop as CancellationError {
            if state.pendingSyncID == nil && !options.dryRun && !sourceCommitted { try forgetPendingSync() }
            throw stop
        }
    }

    private func syncInPackageTransaction(syncID: String, throughPosition: Int64,
                                          tracking: PackageChangeTracking) throws -> SyncReport {
        // Local changes this sync carries; later ones (made after an interrupted run recorded
        // its position) wait for the next sync.
        var changes: [PendingChange] = []
        var laterEdits = Set<RowKey>()
        let unbased = try NoBaseRows.all(in: package)
        var unchanged: [UnchangedEdit] = []
        try tracking.forEachPendingChange(unchanged: { unchanged.append($0) }) { change in
            let key = RowKey(change.table, change.globalID)
            if change.position > throughPosition {
                laterEdits.insert(key)
            } else if unbased.contains(key), let table = tablesByName[key.table] {
                changes.append(change.withoutBase(table))
            } else {
                changes.append(change)
            }
        }
        // A row saved back to its base is no change, in every direction: forgotten before the
        // download, which may then overwrite it like any copy of the source's row.
        try tracking.forget(unchanged.filter { $0.position <= throughPosition && !unbased.contains(RowKey($0.table, $0.globalID)) })
        let decisions = ConflictDecisions(try ConflictStore.decisions(in: package))
        var report = SyncReport(syncID: syncID, replicaID: state.replicaID, source: sourcePath,
                                direction: options.direction, policy: options.policy, dryRun: options.dryRun,
                                status: .completed, resumed: false, generationBefore: state.sourceGeneration,
                                generationAfter: state.sourceGeneration, uploaded: RowCounts(), downloaded: RowCounts(),
                                conflicts: [], pendingAfter: 0)

        // 3. Upload in one source transaction. A dry run keeps it open (uncommitted) through
        // the download and rolls it back at the end.
        var keep = Set<RowKey>()
        var settled = Set<RowKey>(), merged = Set<RowKey>()
        var sourceOpen = false
        defer { if sourceOpen { try? source.execute("ROLLBACK") } }
        if options.dryRun {
            try begin(source, immediate: true)
            sourceOpen = true
        }
        // Every sync but a dry run records its id at the source before the package commits,
        // whichever way it goes: that record is how a stale copy or a restored source is known.
        if options.direction.uploads || !options.dryRun {
            do {
                if let outcome = try applyAtSource(changes, syncID: syncID, decisions: decisions) {
                    report.conflicts = outcome.conflicts
                    report.uploaded = outcome.counts
                    settled = outcome.settled
                    merged = outcome.merged
                } else {
                    report.resumed = true
                    report.conflicts = try ConflictStore.recordedAtSource(syncID: syncID, in: source)
                }
            } catch let stopped as StoppedOnConflicts {
                // Nothing changed at the source; the package records the conflicts only.
                report.conflicts = stopped.outcome.conflicts
                // Rolled back: whatever the upload had written is not applied.
                report.status = .stoppedOnConflicts
                report.pendingAfter = changes.count + laterEdits.count
                if options.dryRun { throw DryRunFinished(report: report) }
                try ConflictStore.record(report.conflicts, syncID: syncID, applied: false, in: package)
                try PackageSyncState.abandon(in: package)
                try InFlightImages.clear(tables, in: package)
                return report
            }
            sourceCommitted = !options.dryRun
        }
        if options.direction.uploads {
            for conflict in report.conflicts where !conflict.kind.isWinnable && conflict.resolution == nil {
                for globalID in conflict.rows { keep.insert(RowKey(conflict.table, globalID)) }
            }
        } else {
            for change in changes { keep.insert(RowKey(change.table, change.globalID)) }
        }
        if !options.dryRun {
            try crash(.sourceCommitted)
            // The download reads one consistent state of the source.
            try begin(source, immediate: false)
            sourceOpen = true
        }

        // 4. Download into the package, in its open transaction.
        let generation = try SourceGeodatabase(connection: source).generation()
        let scope = try DownloadScope(areas: areas, source: source, package: package, tables: tables,
                                      relationships: relationships, projections: projections, mappingLinks: mappingLinks,
                                      geos: geos)
        var done = Set<RowKey>()
        // A row whose local change stays pending is reconciled next time: nothing overwrites it.
        pendingRows = keep.union(laterEdits)
        if !options.direction.uploads { pendingRows.formUnion(changes.map { RowKey($0.table, $0.globalID) }) }
        // Rows come down in tiers: a related-only row belongs when the row it is related to is
        // in the package, and a link when both its ends are, so those wait for the others.
        func tier(_ table: SyncTable) -> Int {
            mappingLinks.isMapping(table) ? 2 : scope.isRelatedOnly(table) ? 1 : 0
        }
        // Rows this sync uploaded take the source's row (merged columns, source-wins).
        var uploadedRows: [[(String, SyncTable)]] = [[], [], []]
        for change in changes {
            let key = RowKey(change.table, change.globalID)
            // A settled row stays eligible below: a source change committed by someone else
            // between the upload and this read must still come down.
            guard !pendingRows.contains(key), !settled.contains(key), let table = tablesByName[key.table] else { continue }
            done.insert(key)
            uploadedRows[tier(table)].append((change.globalID, table))
        }
        for (globalID, table) in uploadedRows.joined() {
            try bringUploadedRow(globalID, table: table, scope: scope, report: &report,
                                 merged: merged.contains(RowKey(table.name, globalID)))
        }
        if options.direction.downloads {
            var later: [[(String, SyncTable)]] = [[], [], []]
            var downloaded = 0
            try SourceGeodatabase(connection: source).forEachChange(since: state.sourceGeneration,
                                                                    excludingReplica: state.replicaID,
                                                                    tables: tables.map(\.name)) { change in
                downloaded += 1
                options.progress?(.download, downloaded, 0)
                let key = RowKey(change.table, change.globalID)
                if pendingRows.contains(key) { deferred.insert(key) }
                guard !done.contains(key), !pendingRows.contains(key), let table = tablesByName[key.table] else { return }
                done.insert(key)
                let t = tier(table)
                if t == 0 {
                    _ = try bringSourceRow(change.globalID, table: table, scope: scope, report: &report, counts: true)
                } else {
                    later[t].append((change.globalID, table))
                }
            }
            // What earlier downloads left for this one.
            for row in try DeferredRows.all(in: package) {
                let key = RowKey(row.table, row.globalID)
                guard let table = tablesByName[key.table] else { continue }
                if pendingRows.contains(key) { deferred.insert(key) }
                guard !done.contains(key), !pendingRows.contains(key) else { continue }
                done.insert(key)
                later[tier(table)].append((row.globalID, table))
            }
            for (globalID, table) in later.joined() {
                _ = try bringSourceRow(globalID, table: table, scope: scope, report: &report, counts: true)
            }
            // A relationship key set or changed offline relates the uploaded row to other rows:
            // those the package takes only for it come too (its upload may have left it settled).
            for change in changes where !pendingRows.contains(RowKey(change.table, change.globalID)) {
                guard let table = tablesByName[change.table.lowercased()], change.operation != .delete else { continue }
                let keys = relationKeys(of: table).map { $0.lowercased() }
                guard change.changedColumns.contains(where: { keys.contains($0.lowercased()) }),
                      try packageRows.row(change.globalID, in: table) != nil,
                      let row = try sourceRows.row(change.globalID, in: table) else { continue }
                try bringRelated(to: row, of: table, scope: scope, report: &report)
            }
            report.left += try removeRowsWithoutParent(scope: scope)
            try recordDeferred(deferred)
        } else if !deferred.isEmpty {
            // Upload only: a settled row whose merged unique value a pending row holds kept its
            // copy; it waits with the rows earlier downloads left (its source change is this
            // replica's own, so no later download would see it otherwise).
            try recordDeferred(deferred.union(try DeferredRows.all(in: package).map { RowKey($0.table, $0.globalID) }))
        }
        try source.execute(options.dryRun ? "ROLLBACK" : "COMMIT")
        sourceOpen = false

        try clearUploaded(through: throughPosition, keeping: keep)
        if report.resumed { try InFlightImages.rebase(tables, in: package) }
        try InFlightImages.clear(tables, in: package)
        try NoBaseRows.prune(in: package)
        try ConflictStore.record(report.conflicts, syncID: syncID, applied: true, in: package)
        let after = options.direction.downloads ? generation : state.sourceGeneration
        try PackageSyncState.finish(syncID: syncID, generation: after, in: package)
        report.generationAfter = after
        report.pendingAfter = keep.count + laterEdits.count
        if report.conflicts.contains(where: { $0.resolution == nil }) || !keep.isEmpty {
            report.status = .completedWithPending
        }
        try crash(.downloadApplied)
        if options.dryRun { throw DryRunFinished(report: report) }
        return report
    }

    /// Runs `body`, again while it fails only because another connection holds the lock past
    /// the busy timeout, until the timeout has passed once more, or Ctrl-C cut the wait short
    /// at a safe point.
    func withRetryOnBusy<T>(_ body: () throws -> T) throws -> T {
        let deadline = Date().addingTimeInterval(options.busyTimeout)
        while true {
            do {
                return try body()
            } catch let error as SQLiteError where error.isBusy && Date() < deadline {
                try checkCancelled()
                Thread.sleep(forTimeInterval: 0.05)
            }
        }
    }

    // MARK: Upload

    /// The source's write transaction: the standing checked again, the upload (when the
    /// direction carries one) and the sync recorded, committed together.
    /// - Returns: nil when the source had already applied this sync (a resumed run).
    /// - Throws: ``StoppedOnConflicts`` with nothing changed; ``SyncError`` when the package
    ///   may no longer sync (noted at the source after the rollback).
    func applyAtSource(_ changes: [PendingChange], syncID: String, decisions: ConflictDecisions) throws -> UploadOutcome? {
        let sourceGDB = SourceGeodatabase(connection: source)
        do {
            return try withRetryOnBusy {
                try ApplyContext.with(replicaID: state.replicaID, syncID: syncID, on: source) { () throws -> UploadOutcome? in
                    if try SyncSession.requireStanding(state, at: sourceGDB, sourcePath: sourcePath, package: packageURL.path,
                                                       note: false) { return nil }
                    let outcome = options.direction.uploads ? try upload(changes, syncID: syncID, decisions: decisions) : UploadOutcome()
                    if outcome.stop { throw StoppedOnConflicts(outcome: outcome) }
                    try ConflictStore.recordAtSource(outcome.conflicts, syncID: syncID, in: source)
                    try checkCancelled()  // the last safe point: the commit follows
                    if !options.dryRun {
                        try sourceGDB.recordSync(replicaID: state.replicaID, syncID: syncID, generation: try sourceGDB.generation())
                    }
                    try crash(.uploadApplied)
                    return outcome
                }
            }
        } catch let error as SyncError where [.staleCopy, .restoredSource, .unregistered].contains(error.kind) {
            if !options.dryRun, case .refused(let refusal)? = try? sourceGDB.standing(of: state.history) {
                try? sourceGDB.noteRefusal(replicaID: state.replicaID, syncID: syncID, refusal)
            }
            throw error
        }
    }

    struct UploadOutcome {
        var conflicts: [Conflict] = []
        var counts = RowCounts()
        /// Uploaded rows the source now holds exactly as the package does (no geometry edit
        /// either, so they cannot have left the area): the download need not bring them back.
        var settled = Set<RowKey>()
        /// Uploaded rows whose source row keeps values of its own (source changes merged with the
        /// local edit, or a conflict the source won): the package takes them, a download.
        var merged = Set<RowKey>()
        /// Unresolved conflicts under the `fail` policy: nothing may change.
        var stop = false
    }

    func upload(_ changes: [PendingChange], syncID: String, decisions: ConflictDecisions) throws -> UploadOutcome {
        var outcome = UploadOutcome()
        let comparator = self.comparator
        let reconciler = Reconciler(policy: options.policy, decisions: decisions,
                                    equal: { comparator.equal($0, $1, $2, $3) },
                                    describe: { comparator.describe($0, $1, $2) })
        var plans: [(PendingChange, SyncTable, RowReconciliation)] = []
        // Grown once: each doubling of tens of thousands of plans copies them all again.
        plans.reserveCapacity(changes.count)
        let discards = try ConflictStore.discards(in: package)
        for (index, change) in changes.enumerated() {
            options.progress?(.upload, index + 1, changes.count)
            if plans.count % Self.rowsBetweenChecks == 0 { try checkCancelled() }
            guard let table = tablesByName[change.table.lowercased()] else { continue }
            if discards.contains(RowKey(change.table, change.globalID)) {
                let result = RowReconciliation(conflicts: [discarded(change, in: table)])
                outcome.conflicts += result.conflicts
                plans.append((change, table, result))
                continue
            }
            var result: RowReconciliation
            do {
                // A reprojected layer reconciles in the package's CRS, where its base is; what
                // goes up is transformed back.
                let sourceRow = try sourceRows.row(change.globalID, in: table).map { try projections.inPackageCRS($0, of: table) }
                // Links of a mapping table reconcile as the global ids of the rows they point to.
                var change = change
                change.base = try mappingLinks.byGlobalID(packageRow: change.base, of: table)
                change.current = try mappingLinks.byGlobalID(packageRow: change.current, of: table)
                result = reconciler.reconcile(change, in: table, sourceRow: try mappingLinks.byGlobalID(sourceRow: sourceRow, of: table))
                result.sourceAction = try projections.inSourceCRS(result.sourceAction, of: table)
            } catch let error as SyncError where error.kind == .unsupportedLayer {
                // A geometry PROJ cannot transform is this row's problem, not the sync's.
                result = RowReconciliation(conflicts: [Conflict(table: table.name, globalID: change.globalID, column: table.geometryColumn,
                                                                kind: .constraint, packageValue: change.operation.rawValue,
                                                                message: error.message)])
            }
            outcome.conflicts += result.conflicts
            let geometryEdited = table.geometryColumn.map { change.changedColumns.contains($0) } ?? false
            // A filtered layer's row may have been edited out of its filter: the download decides.
            if result.leavesRowsEqual && !geometryEdited && change.operation != .insert && table.cut.filter == nil {
                outcome.settled.insert(RowKey(change.table, change.globalID))
            }
            if !result.leavesRowsEqual { outcome.merged.insert(RowKey(change.table, change.globalID)) }
            plans.append((change, table, result))
        }
        if plans.contains(where: { $0.2.isUnresolved }) {
            outcome.stop = true
            return outcome
        }
        // Links go last: the rows they point to may be inserted by this upload.
        let ordered = plans.contains(where: { mappingLinks.isMapping($0.1) })
            ? plans.filter { !mappingLinks.isMapping($0.1) } + plans.filter { mappingLinks.isMapping($0.1) }
            : plans
        try applyUpload(ordered.map { (change: $0.0, table: $0.1, result: $0.2) }, into: &outcome)
        if options.policy == .fail && outcome.conflicts.contains(where: { $0.kind == .constraint && $0.resolution == nil }) {
            outcome.stop = true
        }
        return outcome
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

    /// Refuses a geometry that is not a GeoPackage geometry blob before the source's triggers
    /// meet it, with a message that says what it is, and one that does not fit the source's
    /// column (its declared type, Z and M); a single part for a Multi column goes up wrapped.
    /// - Returns: the action with its geometry as the source's column takes it.
    /// - Throws: ``RowRefusal``.
    func checkGeometry(of action: SourceAction, in table: SyncTable) throws -> SourceAction {
        guard let column = table.geometryColumn else { return action }
        let row: RowValues
        switch action {
        case .none, .delete: return action
        case .insert(let r), .update(let r): row = r
        }
        guard case .blob(let bytes)? = row[column], let index = row.columns.firstIndex(where: { table.isGeometry($0) }) else { return action }
        let decoded: GeoPackageBinary
        do { decoded = try GeoPackageBinary(bytes: bytes) } catch {
            let spatiaLite = bytes.count > 2 && bytes[0] == 0x00 && (bytes[1] == 0x00 || bytes[1] == 0x01) && bytes.last == 0xFE
            throw RowRefusal(message: """
                its \(column) is not a GeoPackage geometry blob\(spatiaLite ? " but a SpatiaLite one (GDAL's SQL functions write those; AsGPB() converts them)" : ""): \(error)
                """)
        }
        guard let declared = table.sourceGeometryType, declared.mismatch(decoded.geometry) != nil else { return action }
        guard let fitted = declared.conformed(decoded.geometry) else {
            throw RowRefusal(message: "its \(column) does not fit the source's column: \(declared.mismatch(decoded.geometry) ?? "")")
        }
        var values = row.values
        values[index] = .blob(GeoPackageBinary(geometry: fitted, srsID: decoded.srsID, envelopeKind: decoded.envelopeKind).encoded())
        let fittedRow = RowValues(columns: row.columns, values: values)
        if case .insert = action { return .insert(fittedRow) }
        return .update(fittedRow)
    }

    /// Forgets the uploaded changes (through `position`) and their base rows, except the rows
    /// that stay pending.
    /// Replaces the package's list of rows a download left for a later one.
    func recordDeferred(_ keys: Set<RowKey>) throws {
        try DeferredRows.replace(with: keys.compactMap { key in tablesByName[key.table].map { ($0.name, key.globalID) } },
                                 in: package)
    }

    func clearUploaded(through position: Int64, keeping keep: Set<RowKey>) throws {
        guard options.direction.uploads else { return }
        // RowKey lower-cases table names; the change log has them as tracked.
        try PackageChangeTracking(connection: package).clearChanges(
            through: position, keeping: keep.map { (tablesByName[$0.table]?.name ?? $0.table, $0.globalID) })
    }

    // MARK: Transactions

    /// BEGIN, retrying while another connection holds the lock past the busy timeout.
    func begin(_ connection: Connection, immediate: Bool) throws {
        try withRetryOnBusy { try connection.execute(immediate ? "BEGIN IMMEDIATE" : "BEGIN") }
    }
}
