/// One sync of a package with its source: the atomic, retry-safe protocol across two databases.
///
/// 0. Open and validate (`SyncOpen.swift`): both files, the registry's standing of the
///    package, columns added at the source, the schemas; nothing is written before.
/// 1. Package: record a pending sync id and the change-log position it uploads through, and
///    commit that before touching the source (a re-run of an interrupted sync finds them).
/// 2. Package: take the write lock (BEGIN IMMEDIATE) for the rest, so no edit slips in between
///    reading the changes and clearing them (`SyncTransactions.swift`, with the retries while
///    another writer holds a lock).
/// 3. Source, in one IMMEDIATE transaction (waiting while other writers finish)
///    (`SyncUpload.swift`, `UploadApply.swift`): if the sync id is recorded as applied, skip
///    to 4. Otherwise reconcile each local change with the source row and its base; with
///    unresolved conflicts, roll back, record them in the package and stop. Else apply the
///    upload (tagged with the replica and sync id, so it is not echoed back), record the sync
///    id and the conflicts, commit.
/// 4. Package, still in its transaction (`SyncDownloadTiers.swift`, `SyncDownload.swift`,
///    `DownloadRemoval.swift`): bring the source's rows for every uploaded row and for every
///    source change since the package's generation (not the package's own), keeping rows in
///    the area, removing those that left; clear the uploaded changes; record conflicts;
///    advance the generation; commit.
///
/// Killed anywhere, the re-run converges: before 3 commits nothing happened at the source
/// (the same id is simply used); after, the id is found applied and only 4 is redone, and 4
/// is computed from the source's current rows, so it gives the same result.
///
/// What a run learns on the way passes from step to step as a ``SyncRunState``; a dry run and
/// a stop on conflicts are how steps end (``SyncRunEnd``, ``UploadStepOutcome``), not errors.
import Foundation
import Geodatabase
import Geometry
import PackageFormat
import SQLite
import SourceDrivers

/// One run of the protocol: what every step reads, fixed before the first.
final class SyncRun {
    let options: SyncOptions
    let packageURL: URL
    let package: Connection
    let source: any SyncSource
    let state: PackageSyncState
    let tables: [SyncTable]
    let tablesByName: [SQLName: SyncTable]
    let areas: [SQLName: Geometry]
    let projections: LayerProjections
    let relationships: [Relationship]
    let mappingLinks: MappingLinks
    let sourcePath: String
    let comparator: ValueComparator
    let geos: GEOSContext
    let packageRows: RowStore
    let sourceRows: SourceRowReader

    init(session: SyncSession, package: Connection, source: any SyncSource, state: PackageSyncState,
         tables: [SyncTable], relationships: [Relationship], areas: [SQLName: Geometry], projections: LayerProjections,
         sourcePath: String, geos: GEOSContext) {
        options = session.options
        packageURL = session.packageURL
        self.package = package
        self.source = source
        self.state = state
        self.tables = tables
        tablesByName = Dictionary(tables.map { ($0.sqlName, $0) }, uniquingKeysWith: { a, _ in a })
        self.areas = areas
        self.projections = projections
        self.relationships = relationships
        mappingLinks = MappingLinks(relationships: relationships, tables: tables, package: package, source: source)
        self.sourcePath = sourcePath
        self.geos = geos
        comparator = ValueComparator(context: geos)
        packageRows = RowStore(connection: package)
        sourceRows = SourceRowReader(source: source)
    }

    /// The source committed this sync's upload (or had it already): from here on the sync
    /// runs to its end (`SyncCancellation`). Kept here, not in ``SyncRunState``: every safe
    /// point reads it, the retry loops too, and it outlives a retried package transaction.
    var sourceCommitted = false

    /// Which rows belong in the package, built once: the upload judges the rows it sends as
    /// they are, the download every row it brings.
    private var builtScope: DownloadScope?
    /// The tables whose uploaded rows the source holds as sent, found in the source's write
    /// transaction (its triggers then are those that store the upload's rows), again in each
    /// retried one; found by the download when nothing was uploaded.
    private var heldAsSent: Set<SQLName>?

    func downloadScope() throws -> DownloadScope {
        if let builtScope { return builtScope }
        let scope = try DownloadScope(areas: areas, source: source, package: package, tables: tables,
                                      relationships: relationships, projections: projections, mappingLinks: mappingLinks,
                                      geos: geos)
        builtScope = scope
        return scope
    }

    func tablesHeldAsSent() throws -> Set<SQLName> {
        if let heldAsSent { return heldAsSent }
        let found = try findTablesHeldAsSent(scope: downloadScope())
        heldAsSent = found
        return found
    }

    /// At the start of each try of the source's write transaction.
    func forgetTablesHeldAsSent() {
        heldAsSent = nil
    }

    func crash(_ point: SyncCrashPoint) throws {
        try options.crashHook?(point)
    }

    func execute() throws -> SyncReport {
        let tracking = PackageChangeTracking(connection: package)
        try checkCancelled()
        let (syncID, throughPosition) = try recordPendingSync(tracking)
        do {
            return try withRetryOnBusy {
                try inPackageTransaction(tracking) {
                    try syncInPackageTransaction(syncID: syncID, throughPosition: throughPosition, tracking: tracking)
                }
            }
        } catch let stop as CancellationError {
            if state.pendingSyncID == nil && !options.dryRun && !sourceCommitted { try forgetPendingSync() }
            throw stop
        }
    }

    /// Step 1: the pending sync recorded before the source is touched (a dry run records
    /// nothing); a re-run takes the id and position an interrupted run recorded.
    /// - Returns: the sync id and the change-log position the sync uploads through.
    private func recordPendingSync(_ tracking: PackageChangeTracking) throws -> (syncID: String, throughPosition: Int64) {
        var syncID = state.pendingSyncID ?? GlobalID.make()
        var throughPosition = state.pendingPosition ?? 0
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
        return (syncID, throughPosition)
    }

    /// Steps 3 and 4, in the package's transaction (step 2): it is the outermost transaction,
    /// so SQLite needs no savepoint journal for it.
    private func syncInPackageTransaction(syncID: String, throughPosition: Int64,
                                          tracking: PackageChangeTracking) throws -> SyncRunEnd {
        var run = try carriedChanges(through: throughPosition, tracking: tracking, syncID: syncID)
        let decisions = ConflictDecisions(try ConflictStore.decisions(in: package))
        // 3. Upload in one source transaction. A dry run keeps it open (uncommitted) through
        // the download and rolls it back at the end.
        var sourceOpen = false
        defer { if sourceOpen { try? source.rollback() } }
        if options.dryRun {
            try beginAtSource(.write)
            sourceOpen = true
        }
        // Every sync but a dry run records its id at the source before the package commits,
        // whichever way it goes: that record is how a stale copy or a restored source is known.
        if options.direction.uploads || !options.dryRun {
            switch try applyAtSource(run.carried, syncID: syncID, decisions: decisions) {
            case .applied(let outcome):
                run.take(outcome)
                try tracking.forget(outcome.unchanged)
            case .alreadyApplied:
                run.report.resumed = true
                run.report.conflicts = try source.conflicts(ofSync: syncID)
            case .stoppedOnConflicts(let outcome):
                try tracking.forget(outcome.unchanged)
                return try stopOnConflicts(outcome, &run, syncID: syncID)
            }
            sourceCommitted = !options.dryRun
        }
        if options.direction.uploads {
            run.keepPendingAfterUpload()
        }
        if !options.direction.uploads || run.report.resumed {
            // No upload ran here to say which rows come back: the carried rows are read again,
            // keys only (an interrupted run's upload brings them all back).
            let (keys, unchanged) = try run.carried.keys()
            try tracking.forget(unchanged)
            if options.direction.uploads {
                run.toBring = keys.map { UploadedRow(key: $0, held: .unknown) }
            } else {
                run.keepPending(keys)
            }
        }
        if !options.dryRun {
            try crash(.sourceCommitted)
            // The download reads one consistent state of the source.
            try beginAtSource(.read)
            sourceOpen = true
        }
        // 4. Download into the package, in its open transaction.
        let position = try download(&run)
        if options.dryRun { try source.rollback() } else { try source.commit() }
        sourceOpen = false
        try finish(&run, syncID: syncID, throughPosition: throughPosition, position: position)
        try crash(.downloadApplied)
        return options.dryRun ? .rollBack(run.report) : .commit(run.report)
    }

    /// The local changes this sync carries; later ones (made after an interrupted run recorded
    /// its position) wait for the next sync. A row saved back to its base is no change, in
    /// every direction: forgotten before the download, which may then overwrite it like any
    /// copy of the source's row.
    private func carriedChanges(through throughPosition: Int64, tracking: PackageChangeTracking,
                                syncID: String) throws -> SyncRunState {
        let carried = try CarriedChanges(tracking: tracking, package: package, through: throughPosition, tables: tables,
                                         isMapping: { mappingLinks.isMapping($0) })
        let report = SyncReport(syncID: syncID, replicaID: state.replicaID, source: sourcePath,
                                direction: options.direction, policy: options.policy, dryRun: options.dryRun,
                                status: .completed, resumed: false, generationBefore: state.sourceGeneration,
                                generationAfter: state.sourceGeneration, uploaded: RowCounts(), downloaded: RowCounts(),
                                conflicts: [], pendingAfter: 0)
        return SyncRunState(carried: carried, editedAfterPosition: try carried.editedAfterPosition(), report: report)
    }

    /// Step 3 stopped: nothing changed at the source (rolled back, whatever the upload had
    /// written is not applied); the package records the conflicts only, and a dry run not even
    /// those.
    private func stopOnConflicts(_ outcome: UploadOutcome, _ run: inout SyncRunState, syncID: String) throws -> SyncRunEnd {
        run.report.conflicts = outcome.conflicts
        run.report.status = .stoppedOnConflicts
        run.report.pendingAfter = outcome.carriedCount + run.editedAfterPosition.count
        if options.dryRun { return .rollBack(run.report) }
        try ConflictStore.record(run.report.conflicts, syncID: syncID, applied: false, in: package)
        try PackageSyncState.abandon(in: package)
        try InFlightImages.clear(tables, in: package)
        return .commit(run.report)
    }

    /// The end of step 4: the uploaded changes cleared, the conflicts recorded, the generation
    /// advanced, the report's last figures.
    private func finish(_ run: inout SyncRunState, syncID: String, throughPosition: Int64, position: SourcePosition) throws {
        try clearUploaded(through: throughPosition, keeping: run.keptPending)
        if run.report.resumed { try InFlightImages.rebase(tables, in: package) }
        try InFlightImages.clear(tables, in: package)
        try NoBaseRows.prune(in: package)
        try ConflictStore.record(run.report.conflicts, syncID: syncID, applied: true, in: package)
        let after = options.direction.downloads ? position.generation : state.sourceGeneration
        let cursor = options.direction.downloads ? position.cursor : state.sourceCursor
        try PackageSyncState.finish(syncID: syncID, generation: after, cursor: cursor, in: package)
        run.report.generationAfter = after
        run.report.pendingAfter = run.pendingAfter
        if run.report.conflicts.contains(where: { $0.resolution == nil }) || !run.keptPending.isEmpty {
            run.report.status = .completedWithPending
        }
    }

    /// Forgets the uploaded changes (through `position`) and their base rows, except the rows
    /// that stay pending.
    private func clearUploaded(through position: Int64, keeping keep: Set<RowKey>) throws {
        guard options.direction.uploads else { return }
        // A RowKey's table is spelled as first met; the change log has it as tracked.
        try PackageChangeTracking(connection: package).clearChanges(
            through: position, keeping: keep.map { (tablesByName[$0.table]?.name ?? $0.table.text, $0.globalID) })
    }
}
