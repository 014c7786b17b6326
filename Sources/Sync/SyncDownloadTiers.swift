/// Step 4 of a sync: the download into the package, in its open transaction, while the source
/// is read in one consistent state. Its order: the rows this sync uploaded, then every source
/// change since the package's generation (not the package's own) and the rows earlier
/// downloads left, by tier; the rows related through keys changed offline; the removal of what
/// no longer belongs; the rows left for a later download recorded. Each row comes down through
/// `SyncDownload.swift`.
import Geodatabase
import PackageFormat
import SQLite
import SourceDrivers

extension SyncRun {
    /// Rows of one tier each, to bring in tier order.
    private typealias Tiers = [[(globalID: String, table: SyncTable)]]

    /// Runs the download.
    /// - Returns: the source's position it read, which the package advances to.
    func download(_ run: inout SyncRunState) throws -> SourcePosition {
        let position = try source.position()
        let scope = try downloadScope()
        run.leaveAloneWhatStaysPending()
        var brought = try bringUploadedRows(&run, scope: scope)
        if options.direction.downloads {
            try bringSourceChanges(&run, scope: scope, besides: &brought)
            try bringRelatedOfChangedKeys(&run, scope: scope)
            let departed = try removeRowsWithoutParent(scope: scope, leavingAlone: run.leftAlone)
            run.report.left += departed
            try recordDeferred(run.deferred)
        } else if !run.deferred.isEmpty {
            // Upload only: a settled row whose merged unique value a pending row holds kept its
            // copy; it waits with the rows earlier downloads left (its source change is this
            // replica's own, so no later download would see it otherwise).
            try recordDeferred(run.deferred.union(try DeferredRows.all(in: package).map { RowKey($0.table, $0.globalID) }))
        }
        return position
    }

    /// Rows come down in tiers: a related-only row belongs when the row it is related to is in
    /// the package, and a link when both its ends are, so those wait for the others.
    private func tier(of table: SyncTable, in scope: DownloadScope) -> Int {
        mappingLinks.isMapping(table) ? 2 : scope.isRelatedOnly(table) ? 1 : 0
    }

    /// Rows this sync uploaded take the source's row (merged columns, source-wins), in tier
    /// order.
    /// - Returns: the rows brought, which the source's changes need not bring again.
    private func bringUploadedRows(_ run: inout SyncRunState, scope: DownloadScope) throws -> Set<RowKey> {
        var brought = Set<RowKey>(minimumCapacity: run.toBring.count)
        let toBring = run.toBring
        run.toBring = []
        let heldAsSent = try tablesHeldAsSent()
        for rowTier in 0..<3 {
            for start in stride(from: 0, to: toBring.count, by: Self.uploadBatchSize) {
                try bringUploaded(toBring[start..<min(start + Self.uploadBatchSize, toBring.count)], tier: rowTier,
                                  heldAsSent: heldAsSent, scope: scope, run: &run, brought: &brought)
            }
        }
        return brought
    }

    /// One batch of the uploaded rows, those of one tier, their source rows read ahead where the
    /// source reads batches faster.
    private func bringUploaded(_ batch: ArraySlice<UploadedRow>, tier rowTier: Int, heldAsSent: Set<SQLName>,
                               scope: DownloadScope, run: inout SyncRunState, brought: inout Set<RowKey>) throws {
        // A settled row (not listed) stays eligible: a source change committed by someone else
        // between the upload and this read must still come down. So does a row held as sent,
        // which is not read back.
        func eligibleTable(_ row: UploadedRow) -> SyncTable? {
            guard !run.leftAlone.contains(row.key), let table = tablesByName[row.key.table],
                  tier(of: table, in: scope) == rowTier else { return nil }
            return table
        }
        // The rows read whatever the loop finds on the way: not brought yet, not held as sent.
        let surelyRead = !source.readsBatchesFaster ? [] : batch.compactMap { row -> (globalID: String, table: SyncTable)? in
            guard let table = eligibleTable(row), !brought.contains(row.key), !heldAsSent.contains(table.sqlName) else { return nil }
            return (row.key.globalID, table)
        }
        try sourceRows.readingAhead(surelyRead) {
            for row in batch {
                guard let table = eligibleTable(row) else { continue }
                if heldAsSent.contains(table.sqlName), try stillBelongs(row, of: table, scope: scope) { continue }
                guard brought.insert(row.key).inserted else { continue }
                try bringUploadedRow(row.key.globalID, table: table, scope: scope, run: &run, merged: row.held == .merged)
            }
        }
    }

    /// The tables whose rows the source took as sent (``UploadedRow/Held/asSent``) it holds exactly
    /// as the package does, so that reading them back would change nothing: the source stores
    /// values as written (``SyncSource/storesAsSent(_:)``), and the layer is neither
    /// reprojected nor clipped, has no filter (the source judges it), and takes no part in a
    /// relationship (a key edited offline brings related rows, which the read-back does).
    func findTablesHeldAsSent(scope: DownloadScope) throws -> Set<SQLName> {
        var held = Set<SQLName>()
        for table in tables where !projections.isReprojected(table) && !table.cut.clipped && table.cut.filter == nil
            && !mappingLinks.isMapping(table) && !scope.isRelatedOnly(table) && relationKeys(of: table).isEmpty
            && mappingLinks.mappings(linking: table).isEmpty {
            if try source.storesAsSent(table.shape) { held.insert(table.sqlName) }
        }
        return held
    }

    /// Whether the package's row of a row held as sent is still in the package's area (an
    /// edited geometry may have left it: the read-back then removes the row and says why).
    /// The upload judged most such rows as it sent them; the others are read.
    private func stillBelongs(_ row: UploadedRow, of table: SyncTable, scope: DownloadScope) throws -> Bool {
        switch row.held {
        case .asSentInArea: return true
        case .asSent:
            guard let packaged = try packageRows.row(row.key.globalID, in: table) else { return false }
            return try scope.contains(packaged, of: table)
        case .merged, .unknown: return false
        }
    }

    /// The source's changes since the package's generation, other replicas' only, and what
    /// earlier downloads left for this one: first-tier rows as they stream, the others after.
    ///
    /// First-tier rows are brought a batch at a time where the source reads batches faster,
    /// else each as it streams; either way in the stream's order, and what decides whether a
    /// row comes (the rows brought, those left alone) does not change while a batch waits.
    private func bringSourceChanges(_ run: inout SyncRunState, scope: DownloadScope, besides brought: inout Set<RowKey>) throws {
        var later: Tiers = [[], [], []]
        var downloaded = 0
        var firstTier: [(globalID: String, table: SyncTable)] = []
        let batchSize = source.readsBatchesFaster ? Self.uploadBatchSize : 1
        func bringFirstTier() throws {
            try bringBatch(firstTier, scope: scope, run: &run)
            firstTier.removeAll(keepingCapacity: true)
        }
        let since = try source.position(cursor: state.sourceCursor, generation: state.sourceGeneration)
        try source.forEachChange(since: since, excludingReplica: state.replicaID, tables: tables.map(\.name)) { change in
            downloaded += 1
            options.progress?(.download, downloaded, 0)
            let key = RowKey(change.table, change.globalID)
            if run.leftAlone.contains(key) { run.deferred.insert(key) }
            guard !brought.contains(key), !run.leftAlone.contains(key), let table = tablesByName[key.table] else { return }
            brought.insert(key)
            let t = tier(of: table, in: scope)
            if t == 0 {
                firstTier.append((change.globalID, table))
                if firstTier.count == batchSize { try bringFirstTier() }
            } else {
                later[t].append((change.globalID, table))
            }
        }
        try bringFirstTier()
        for row in try DeferredRows.all(in: package) {
            let key = RowKey(row.table, row.globalID)
            guard let table = tablesByName[key.table] else { continue }
            if run.leftAlone.contains(key) { run.deferred.insert(key) }
            guard !brought.contains(key), !run.leftAlone.contains(key) else { continue }
            brought.insert(key)
            later[tier(of: table, in: scope)].append((row.globalID, table))
        }
        let rest = Array(later.joined())
        for start in stride(from: 0, to: rest.count, by: Self.uploadBatchSize) {
            try bringBatch(Array(rest[start..<min(start + Self.uploadBatchSize, rest.count)]), scope: scope, run: &run)
        }
    }

    /// Brings these source rows, in order, read ahead as one batch where that is faster.
    private func bringBatch(_ rows: [(globalID: String, table: SyncTable)], scope: DownloadScope, run: inout SyncRunState) throws {
        try sourceRows.readingAhead(rows) {
            for (globalID, table) in rows {
                _ = try bringSourceRow(globalID, table: table, scope: scope, run: &run, counts: true)
            }
        }
    }

    /// A relationship key set or changed offline relates the uploaded row to other rows: those
    /// the package takes only for it come too (its upload may have left it settled).
    private func bringRelatedOfChangedKeys(_ run: inout SyncRunState, scope: DownloadScope) throws {
        let keysOfTable = Dictionary(tables.map { ($0.sqlName, Set(relationKeys(of: $0).map { SQLName($0) })) },
                                     uniquingKeysWith: { a, _ in a })
        guard keysOfTable.values.contains(where: { !$0.isEmpty }) else { return }
        // Listed first, brought after: the log is not read while the package is written.
        var relinked: [(globalID: String, table: SyncTable)] = []
        try run.carried.forEachBatch(of: Self.uploadBatchSize) { table, batch in
            guard let keys = keysOfTable[table.sqlName], !keys.isEmpty else { return }
            for change in batch where change.operation != .delete && !run.leftAlone.contains(RowKey(change.table, change.globalID)) {
                if change.changedColumns.contains(where: { keys.contains(SQLName($0)) }) { relinked.append((change.globalID, table)) }
            }
        }
        for (globalID, table) in relinked {
            guard try packageRows.row(globalID, in: table) != nil, let row = try sourceRows.row(globalID, in: table) else { continue }
            try bringRelated(to: row, of: table, scope: scope, run: &run)
        }
    }

    /// Replaces the package's list of rows a download left for a later one.
    func recordDeferred(_ keys: Set<RowKey>) throws {
        try DeferredRows.replace(with: keys.compactMap { key in tablesByName[key.table].map { ($0.name, key.globalID) } },
                                 in: package)
    }
}
