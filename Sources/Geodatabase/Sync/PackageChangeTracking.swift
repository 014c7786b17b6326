/// Change tracking inside a package (`data.gpkg`): every insert, update and delete on a
/// tracked table is recorded by triggers, whoever makes it (our API, GDAL, QGIS, sqlite3 with
/// the GeoPackage functions), with the row's base values saved at its first change.
///
/// Schema (DDL in `SyncSchema`): `pkgbuild_tables`, `pkgbuild_apply_context`,
/// `pkgbuild_edits` (one row per changed row: its NET operation, UNIQUE (table, globalid),
/// `position` AUTOINCREMENT renewed at each change), and per tracked table T a base table
/// `pkgbuild_base_T` (T's columns and declared types, primary key the global id column G).
///
/// Triggers on T (key K, global id G), core SQL only, all silent while the apply context is
/// set (a sync writing downloaded rows; see ``ApplyContext``):
/// - `pkgbuild_guard_T` BEFORE UPDATE OF G: a set G cannot change.
/// - `pkgbuild_edit_T_stage` BEFORE INSERT: stages the rows the insert could replace, saving
///   their base rows provisionally (see ``ReplaceStaging``).
/// - `pkgbuild_edit_T_insert` AFTER INSERT: records each staged row that is gone as deleted
///   (its base kept), drops the provisional bases of the others; fills a NULL G from
///   `randomblob`; records 'insert', or 'update' when a base row exists for G (deleted, then
///   re-inserted, or replaced by a row keeping its G).
/// - `pkgbuild_edit_T_update` AFTER UPDATE WHEN some column other than G changed: saves OLD
///   into the base table (`INSERT OR IGNORE`: only the first change's OLD is kept; never for
///   a row inserted offline), then records 'update' unless the row is already 'insert'.
/// - `pkgbuild_edit_T_delete` AFTER DELETE: a row inserted offline just loses its 'insert'
///   (nothing to sync); any other saves OLD as base and records 'delete'.
///
/// The update and delete triggers first clear what an ignored insert left staged. So a
/// REPLACE is a delete plus an insert, with `recursive_triggers` on or off.
///
/// So: insert+delete leaves nothing; update+update is one update against the base; an update
/// that puts every base value back lists as no change.
///
/// Sync's use: ``forEachPendingChange(_:)`` to upload; writes of downloaded rows inside
/// ``withoutTracking(_:)``; after the source committed, ``clearChanges(through:keeping:)``
/// with the position read before the upload, keeping the rows that stay pending.
import Geometry
import SQLite

/// Change tracking of a package, over a connection the caller owns.
///
/// - Important: Like its ``Connection``, not thread-safe: one owner at a time.
public struct PackageChangeTracking {
    public let connection: Connection

    /// Over a connection on which the GeoPackage functions are registered.
    public init(connection: Connection) {
        self.connection = connection
    }

    /// Over an open ``GeoPackage`` (its connection has the functions GDAL's triggers call).
    public init(_ geoPackage: GeoPackage) {
        self.connection = geoPackage.connection
    }

    /// Puts tables under tracking, in one transaction (the package's rows as they are become
    /// the base); doing it again changes nothing, and brings base tables and triggers up to
    /// date after a column was added (and the edit log's CHECK, ``OperationCheck``).
    /// - Parameter tables: nil for the tables already tracked, or when none, every feature and
    ///   attribute table and Related Tables mapping table.
    /// - Returns: the tracked tables.
    @discardableResult
    public func install(tables: [String]? = nil) throws -> [TrackedTable] {
        try connection.withTransaction(.immediate) {
            guard try tableExists("gpkg_contents", in: connection) else {
                throw GeodatabaseError(.notAGeoPackage, "\(connection.path) is not a GeoPackage: it has no gpkg_contents table")
            }
            for statement in SyncSchema.commonDDL + SyncSchema.packageDDL { try connection.execute(statement) }
            try OperationCheck.upgrade(SyncSchema.editsTable, in: connection)
            var names = try tables ?? loadTrackedTables(connection).map(\.name)
            if names.isEmpty && tables == nil { names = try defaultTrackedTableNames(connection) }
            var result: [TrackedTable] = []
            for name in names {
                let table = try prepareTrackedTable(name, in: connection)
                try ensureBaseTable(table)
                let uniqueKeys = try ReplaceStaging.uniqueKeys(of: table.name, in: connection)
                for trigger in [guardTriggerSQL(table)] + Self.editTriggers(table, uniqueKeys: uniqueKeys) {
                    try installTrigger(named: trigger.name, sql: trigger.sql, in: connection)
                }
                result.append(table)
            }
            try OwnTables.register(in: connection, side: .package)
            return result
        }
    }

    /// The tracked tables.
    public func trackedTables() throws -> [TrackedTable] { try loadTrackedTables(connection) }

    /// The position of the latest recorded change, 0 before any.
    public func position() throws -> Int64 {
        try requireInstalled()
        return try connection.scalar("SELECT seq FROM sqlite_sequence WHERE name = 'pkgbuild_edits'")?.int64Value ?? 0
    }

    /// Every pending change, in position order (the order the rows were last changed).
    /// Updates that changed no value leave the list.
    public func pendingChanges() throws -> [PendingChange] {
        var changes: [PendingChange] = []
        try forEachPendingChange { changes.append($0) }
        return changes.sorted { $0.position < $1.position }
    }

    /// Streams the pending changes table by table (in `pkgbuild_tables` order), each table's in
    /// position order, one row in memory at a time.
    /// - Parameters:
    ///   - tables: the tables to stream, in this order (nil: every tracked table).
    ///   - positions: only the records whose position is in this range (nil: all).
    ///   - unchanged: told of each update record that changed no value (a row saved back to
    ///     its base), with its position; such a record is no change and is not streamed.
    public func forEachPendingChange(tables names: [String]? = nil, positions: ClosedRange<Int64>? = nil,
                                     unchanged: (UnchangedEdit) -> Void = { _ in },
                                     _ body: (PendingChange) throws -> Void) throws {
        try requireInstalled()
        let range = positions ?? Int64.min...Int64.max
        try connection.withTransaction {
            let tracked = try trackedTables()
            let streamed = names.map { names in names.compactMap { name in tracked.first { $0.name == name } } } ?? tracked
            for table in streamed {
                let columns = table.columns
                let g = SQL.identifier(table.globalIDColumn)
                // A column added to the package only (not by a sync) is missing from the base
                // table: its base is unknown, so NULL, and the sync refuses it by name.
                let baseFields = Set(try readFields(of: SyncSchema.baseTable(for: table.name), in: connection).map { SQLName($0.name) })
                let baseColumns = columns.map { baseFields.contains(SQLName($0)) ? "b.\(SQL.identifier($0))" : "NULL" }
                    .joined(separator: ", ")
                let currentColumns = columns.map { "t.\(SQL.identifier($0))" }.joined(separator: ", ")
                // By index: base and current share `columns` (no name lookups per row).
                let compared = columns.indices.filter { columns[$0] != table.globalIDColumn && columns[$0] != table.keyColumn }
                // The log is read in position order (its rowid), not through the table-name
                // index: that would sort the whole joined result, rows and all, in a temporary
                // B-tree (`+` keeps SQLite off the index).
                try connection.forEachRow("""
                    SELECT e.position, e.globalid, e.operation, b.\(g) IS NOT NULL, t.\(g) IS NOT NULL,
                      \(baseColumns), \(currentColumns)
                    FROM pkgbuild_edits e
                    LEFT JOIN \(SQL.identifier(SyncSchema.baseTable(for: table.name))) b ON b.\(g) = e.globalid
                    LEFT JOIN \(SQL.identifier(table.name)) t ON t.\(g) = e.globalid
                    WHERE +e.table_name = ? AND e.position BETWEEN ? AND ? ORDER BY e.position
                    """, [.text(table.name), .integer(range.lowerBound), .integer(range.upperBound)]) { row in
                    let n = columns.count
                    let base = row.int64(at: 3) == 1
                        ? RowValues(columns: columns, values: (0..<n).map { row.value(at: 5 + $0) }) : nil
                    let current = row.int64(at: 4) == 1
                        ? RowValues(columns: columns, values: (0..<n).map { row.value(at: 5 + n + $0) }) : nil
                    let operation = try ChangeOperation(parsing: row.value(at: 2), in: SyncSchema.editsTable, table: table.name,
                                                         globalID: row.value(at: 1).stringValue ?? "")
                    let changed: [String]
                    switch operation {
                    case .insert: changed = compared.filter { current?.values[$0].isNull == false }.map { columns[$0] }
                    case .delete: changed = []
                    case .update: changed = compared.filter { Self.differs(base?.values[$0], current?.values[$0]) }.map { columns[$0] }
                    }
                    if operation == .update && changed.isEmpty && base != nil && current != nil {
                        unchanged(UnchangedEdit(table: table.name, globalID: row.value(at: 1).stringValue ?? "",
                                                position: row.int64(at: 0)))
                        return
                    }
                    try body(PendingChange(table: table.name, globalID: row.value(at: 1).stringValue ?? "",
                                           operation: operation, position: row.int64(at: 0),
                                           base: base, current: current, changedColumns: changed))
                }
            }
        }
    }

    /// Checks that every change ``forEachPendingChange(unchanged:_:)`` streams has a known
    /// operation, and that no change names a table it does not stream, so that a sync refuses
    /// a damaged log before it writes anything.
    /// - Throws: ``GeodatabaseError`` (`invalidContent`) naming the first damaged change.
    public func requireKnownOperations() throws {
        try requireInstalled()
        let tracked = Set(try trackedTables().map(\.name))
        let damaged = try connection.query("""
            SELECT table_name, globalid, operation FROM \(SyncSchema.editsTable)
            WHERE \(ChangeOperation.unknownOperationSQL) ORDER BY position
            """)
        try ChangeOperation.requireKnown(damaged.filter { tracked.contains($0[0].stringValue ?? "") }, in: SyncSchema.editsTable)
        try requireTrackedTables(tracked)
    }

    /// Every change names a tracked table, spelled as tracked: a change of another is never
    /// streamed, and the sync that clears what it uploaded would drop it unseen. The log's
    /// table names are walked through its index, one lookup each, not row by row.
    /// - Throws: ``GeodatabaseError`` (`invalidContent`) naming the first such table.
    private func requireTrackedTables(_ tracked: Set<String>) throws {
        var name = try connection.scalar("SELECT min(table_name) FROM \(SyncSchema.editsTable)")?.stringValue
        while let current = name {
            if !tracked.contains(current) {
                let count = try connection.scalar("SELECT count(*) FROM \(SyncSchema.editsTable) WHERE table_name = ?",
                                                  [.text(current)])?.int64Value ?? 0
                throw GeodatabaseError(.invalidContent, """
                    \(connection.path): \(SyncSchema.editsTable) holds \(count) change(s) of table '\(current)', which the package \
                    does not track (tracked: \(tracked.sorted().joined(separator: ", "))); a sync would clear them without uploading them, \
                    so nothing is synced until they are tracked again or removed from the log
                    """)
            }
            name = try connection.scalar("SELECT min(table_name) FROM \(SyncSchema.editsTable) WHERE table_name > ?",
                                         [.text(current)])?.stringValue
        }
    }

    /// Forgets the changes at or before `position` (the current rows become their base),
    /// except those of the rows in `keeping`, which stay pending; later changes stay pending
    /// against their old base. Runs in the caller's transaction when one is open (a sync's
    /// outermost one, which then needs no savepoint), else in its own.
    /// - Parameter keeping: rows by table name (as tracked) and global id.
    public func clearChanges(through position: Int64 = .max, keeping keep: [(table: String, globalID: String)] = []) throws {
        try requireInstalled()
        func clear() throws {
            let kept = try keepCondition(keep)
            for table in try trackedTables() {
                let base = SQL.identifier(SyncSchema.baseTable(for: table.name))
                if kept.isEmpty, try !hasBaseRowsOutsideEdits(of: table, through: position) {
                    try connection.execute("DELETE FROM \(base)")
                    continue
                }
                try connection.execute("""
                    DELETE FROM \(base) WHERE \(SQL.identifier(table.globalIDColumn)) IN
                      (SELECT e.globalid FROM pkgbuild_edits e WHERE e.table_name = ? AND e.position <= ?\(kept))
                    """, [.text(table.name), .integer(position)])
            }
            if kept.isEmpty, try connection.scalar("SELECT 1 FROM pkgbuild_edits WHERE position > ? LIMIT 1", [.integer(position)]) == nil {
                try connection.execute("DELETE FROM pkgbuild_edits")
            } else {
                try connection.execute("DELETE FROM pkgbuild_edits AS e WHERE e.position <= ?\(kept)", [.integer(position)])
            }
        }
        if connection.isInTransaction { try clear() } else { try connection.withTransaction(.immediate) { try clear() } }
    }

    /// The condition on an edit `e` that leaves the rows of `keep` out ("" when it is empty),
    /// with those rows staged in a temporary table.
    private func keepCondition(_ keep: [(table: String, globalID: String)]) throws -> String {
        guard !keep.isEmpty else { return "" }
        try connection.execute("CREATE TEMP TABLE IF NOT EXISTS pkgbuild_keep (table_name TEXT, globalid TEXT)")
        try connection.execute("DELETE FROM temp.pkgbuild_keep")
        let insert = try connection.prepare("INSERT INTO temp.pkgbuild_keep VALUES (?, ?)")
        for row in keep {
            insert.reset()
            try insert.bind([.text(row.table), .text(row.globalID)])
            while try insert.step() {}
        }
        return " AND NOT EXISTS (SELECT 1 FROM temp.pkgbuild_keep k WHERE k.table_name = e.table_name AND k.globalid = e.globalid)"
    }

    /// True when some base row of `table` is not the base of an edit at or before `position`
    /// (a later edit's, or one no edit names). When none is, clearing empties the base table,
    /// which SQLite does without touching a row: a sync that uploads every edit of a season
    /// then spends no time deleting their bases one by one.
    private func hasBaseRowsOutsideEdits(of table: TrackedTable, through position: Int64) throws -> Bool {
        let g = SQL.identifier(table.globalIDColumn)
        return try connection.scalar("""
            SELECT 1 FROM \(SQL.identifier(SyncSchema.baseTable(for: table.name))) b WHERE NOT EXISTS
              (SELECT 1 FROM pkgbuild_edits e WHERE e.table_name = ? AND e.globalid = b.\(g) AND e.position <= ?) LIMIT 1
            """, [.text(table.name), .integer(position)]) != nil
    }

    /// Forgets edit records that changed nothing (see ``forEachPendingChange(unchanged:_:)``):
    /// the row is as its base, so it is an ordinary copy of the source's again, and a download
    /// may overwrite it. Kept, such a record would later compare an old base with whatever the
    /// download wrote and invent a local edit that reverts the office's change.
    public func forget(_ edits: [UnchangedEdit]) throws {
        guard !edits.isEmpty else { return }
        let globalIDColumns = Dictionary(try trackedTables().map { ($0.name, $0.globalIDColumn) }, uniquingKeysWith: { a, _ in a })
        for edit in edits {
            try connection.execute("DELETE FROM pkgbuild_edits WHERE table_name = ? AND globalid = ? AND position = ?",
                                   [.text(edit.table), .text(edit.globalID), .integer(edit.position)])
            guard connection.changes > 0, let g = globalIDColumns[edit.table] else { continue }
            try connection.execute("DELETE FROM \(SQL.identifier(SyncSchema.baseTable(for: edit.table))) WHERE \(SQL.identifier(g)) = ?",
                                   [.text(edit.globalID)])
        }
    }

    /// Runs `body` with tracking off (the apply context set), in a transaction: its writes
    /// record nothing. For rows a download writes.
    public func withoutTracking<T>(_ body: () throws -> T) throws -> T {
        try ApplyContext.with(replicaID: nil, syncID: nil, on: connection, body)
    }

    // MARK: - Internals

    /// A value changed: not the same SQLite value, and not a geometry only re-encoded (GDAL
    /// rewrites the blob of every feature it saves), so that a save of unchanged values is
    /// no change whichever client made it.
    static func differs(_ a: SQLiteValue?, _ b: SQLiteValue?) -> Bool {
        guard a != b else { return false }
        if case .blob(let x)? = a, case .blob(let y)? = b { return !GeoPackageBinary.sameGeometry(x, y) }
        return true
    }

    private func requireInstalled() throws {
        guard try tableExists(SyncSchema.editsTable, in: connection) else {
            throw GeodatabaseError(.notEnabled, "\(connection.path) has no change tracking (no pkgbuild_edits table)")
        }
    }

    /// Creates the base table and the in-flight table, or adds the columns the tracked table
    /// gained since.
    private func ensureBaseTable(_ table: TrackedTable) throws {
        try ensureImageTable(SyncSchema.baseTable(for: table.name), of: table, extra: [])
        try ensureImageTable(SyncSchema.inFlightTable(for: table.name), of: table,
                             extra: ["\(SyncSchema.inFlightOperationColumn) TEXT NOT NULL"])
    }

    /// A table of row images of `table`: its columns and declared types, no constraints but
    /// the global id, its primary key.
    private func ensureImageTable(_ name: String, of table: TrackedTable, extra: [String]) throws {
        let fields = try readFields(of: table.name, in: connection)
        if try tableExists(name, in: connection) {
            let existing = Set(try readFields(of: name, in: connection).map { SQLName($0.name) })
            for field in fields where !existing.contains(SQLName(field.name)) {
                try connection.execute("ALTER TABLE \(SQL.identifier(name)) ADD COLUMN \(SQL.identifier(field.name)) \(field.declaredType)")
            }
            return
        }
        let columns = fields.map { field -> String in
            let type = field.declaredType.isEmpty ? "" : " \(field.declaredType)"
            return SQL.identifier(field.name) + type + (field.name == table.globalIDColumn ? " NOT NULL" : "")
        }
        try connection.execute("""
            CREATE TABLE \(SQL.identifier(name)) (\((columns + extra).joined(separator: ", ")), \
            PRIMARY KEY (\(SQL.identifier(table.globalIDColumn))))
            """)
    }

    /// The edit triggers of a table; `uniqueKeys` are its UNIQUE column sets (for REPLACE).
    static func editTriggers(_ table: TrackedTable, uniqueKeys: [[String]]) -> [(name: String, sql: String)] {
        let sql = EditTriggerSQL(table)
        return [sql.stageTrigger(uniqueKeys: uniqueKeys), sql.insertTrigger, sql.updateTrigger, sql.deleteTrigger]
    }
}

/// An update record that changed no value: the row was saved back to its base.
public struct UnchangedEdit: Sendable, Equatable {
    public var table: String
    public var globalID: String
    public var position: Int64
}
