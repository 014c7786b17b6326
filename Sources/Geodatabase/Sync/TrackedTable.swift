/// A table under change tracking (in a source or a package), and the steps both sides share
/// to put a table under tracking: find its key, adopt or add its `globalid` column, backfill
/// and index it, record it in `pkgbuild_tables`, and (re)create
/// triggers only when their SQL changed, so that doing it twice changes nothing.
import SQLite

/// A tracked table: its name and the columns tracking relies on.
public struct TrackedTable: Sendable, Hashable {
    public var name: String
    /// The INTEGER PRIMARY KEY column (`fid` in GDAL's files), or `rowid` for a table without
    /// one (a Related Tables mapping table). Local to each database.
    public var keyColumn: String
    /// The global id column: `globalid`, or an adopted column of that name in another case
    /// (`GlobalID`).
    public var globalIDColumn: String
    /// Every column of the table, in order (the key and the global id included).
    public var columns: [String]

    public init(name: String, keyColumn: String, globalIDColumn: String, columns: [String]) {
        self.name = name
        self.keyColumn = keyColumn
        self.globalIDColumn = globalIDColumn
        self.columns = columns
    }

    /// The columns whose change makes a row changed: all but the global id.
    var valueColumns: [String] { columns.filter { $0 != globalIDColumn } }

    /// `OLD."a" IS NOT NEW."a" OR ...`: true when an UPDATE changed any value column.
    var changedCondition: String {
        valueColumns.map { "OLD.\(SQL.identifier($0)) IS NOT NEW.\(SQL.identifier($0))" }.joined(separator: " OR ")
    }
}

/// The tables `pkgbuild_tables` lists, with their current columns.
func loadTrackedTables(_ connection: Connection) throws -> [TrackedTable] {
    guard try tableExists(SyncSchema.tablesTable, in: connection) else { return [] }
    return try connection.query("SELECT table_name, key_column, globalid_column FROM pkgbuild_tables ORDER BY rowid")
        .map { row in
            let name = row[0].stringValue ?? ""
            return TrackedTable(name: name, keyColumn: row[1].stringValue ?? "rowid",
                                globalIDColumn: row[2].stringValue ?? "globalid",
                                columns: try readFields(of: name, in: connection).map(\.name))
        }
}

/// The tables tracked by default: every feature and attribute table of `gpkg_contents`, and
/// every Related Tables mapping table (its links must sync too).
func defaultTrackedTableNames(_ connection: Connection) throws -> [String] {
    var names = try connection.query("""
        SELECT table_name FROM gpkg_contents WHERE data_type IN ('features', 'attributes') ORDER BY rowid
        """).compactMap { $0[0].stringValue }
    if try tableExists("gpkgext_relations", in: connection) {
        for row in try connection.query("SELECT mapping_table_name FROM gpkgext_relations ORDER BY id") {
            if let name = row[0].stringValue, !names.contains(name: SQLName(name)) {
                names.append(name)
            }
        }
    }
    return names
}

/// Makes `table` trackable: key found, `globalid` column adopted or added, NULLs backfilled
/// with fresh ids, uniqueness checked and indexed, recorded in `pkgbuild_tables` (the callers
/// register our tables in `gpkg_extensions`, see ``OwnTables``). Writes nothing when all of that is already so. The caller has run
/// `SyncSchema.commonDDL` (both callers run it with their own side's DDL, once per call).
/// - Throws: ``GeodatabaseError`` naming the table and column when the table is missing,
///   has no usable key, its `globalid` column is not text, or holds duplicate ids.
/// - Parameter progress: hears how far filling the global ids of a large table has come.
func prepareTrackedTable(_ requested: String, in connection: Connection,
                         progress: (_ done: Int, _ total: Int) -> Void = { _, _ in }) throws -> TrackedTable {
    guard let name = try canonicalTableName(requested, in: connection) else {
        throw GeodatabaseError(.unknownTable, "\(connection.path): no table named '\(requested)'")
    }
    if ["pkgbuild_", "gpkg", "rtree_"].contains(where: SQLName(name).hasPrefix) {
        throw GeodatabaseError(.invalidArgument, "\(connection.path): '\(name)' is a metadata table, not user data")
    }
    var fields = try readFields(of: name, in: connection)
    let key: String
    if let integerKey = integerPrimaryKey(of: fields) {
        key = integerKey
    } else if (try? connection.query("SELECT rowid FROM \(SQL.identifier(name)) LIMIT 0")) != nil,
              !fields.contains(where: { SQLName($0.name) == "rowid" }) {
        key = "rowid"
    } else {
        throw GeodatabaseError(.invalidContent,
                               "\(connection.path): table '\(name)' has neither an INTEGER PRIMARY KEY nor a rowid")
    }

    let globalID: String
    if let existing = fields.first(where: { SQLName($0.name) == "globalid" }) {
        let type = existing.declaredType.uppercased()
        if ["INT", "REAL", "FLOA", "DOUB", "BLOB", "NUM", "BOOL", "DATE"].contains(where: { type.contains($0) })
            || existing.primaryKeyIndex > 0 {
            throw GeodatabaseError(.invalidContent, """
                \(connection.path): column '\(name).\(existing.name)' cannot hold global ids \
                (declared \(existing.declaredType.isEmpty ? "without a type" : existing.declaredType)\
                \(existing.primaryKeyIndex > 0 ? ", part of the primary key" : "")); UUID text is needed
                """)
        }
        globalID = existing.name
    } else {
        try connection.execute("ALTER TABLE \(SQL.identifier(name)) ADD COLUMN globalid TEXT")
        globalID = "globalid"
        fields = try readFields(of: name, in: connection)
    }

    try fillGlobalIDs(name, key: key, column: globalID, in: connection, progress: progress)
    // A UNIQUE index already keeps the ids unique: the check, a scan of every row, is for the
    // first time only (each sync installs again), where it names the duplicate the index would
    // refuse.
    if try !hasUniqueIndex(on: globalID, of: name, in: connection) {
        try requireUniqueGlobalIDs(name, column: globalID, in: connection)
        try connection.execute("""
            CREATE UNIQUE INDEX \(SQL.identifier("pkgbuild_\(name)_globalid")) ON \(SQL.identifier(name)) (\(SQL.identifier(globalID)))
            """)
    }

    try connection.execute("""
        INSERT INTO pkgbuild_tables (table_name, key_column, globalid_column) VALUES (?1, ?2, ?3)
        ON CONFLICT (table_name) DO UPDATE SET key_column = ?2, globalid_column = ?3
        WHERE key_column IS NOT ?2 OR globalid_column IS NOT ?3
        """, [.text(name), .text(key), .text(globalID)])
    return TrackedTable(name: name, keyColumn: key, globalIDColumn: globalID, columns: fields.map(\.name))
}

/// - Throws: ``GeodatabaseError`` (`invalidContent`) naming an id two rows hold.
private func requireUniqueGlobalIDs(_ table: String, column: String, in connection: Connection) throws {
    guard let duplicate = try connection.query("""
        SELECT \(SQL.identifier(column)), count(*) FROM \(SQL.identifier(table)) GROUP BY \(SQL.identifier(column)) HAVING count(*) > 1 LIMIT 1
        """).first else { return }
    throw GeodatabaseError(.invalidContent, """
        \(connection.path): column '\(table).\(column)' holds the id \(duplicate[0].description) \
        \(duplicate[1].int64Value ?? 2) times; global ids must be unique
        """)
}

/// True when a UNIQUE index (or constraint) covers exactly that one column.
private func hasUniqueIndex(on column: String, of table: String, in connection: Connection) throws -> Bool {
    for index in try connection.query("SELECT name FROM pragma_index_list(?) WHERE \"unique\" = 1", [.text(table)]) {
        guard let indexName = index[0].stringValue else { continue }
        let columns = try connection.query("SELECT name FROM pragma_index_info(?)", [.text(indexName)])
            .compactMap { $0[0].stringValue.map { SQLName($0) } }
        if columns == [SQLName(column)] { return true }
    }
    return false
}

/// Creates or replaces trigger `name` with `sql` (which must start `CREATE TRIGGER "name"`),
/// doing nothing when the stored SQL is already the same.
func installTrigger(named name: String, sql: String, in connection: Connection) throws {
    let stored = try connection.scalar("SELECT sql FROM sqlite_master WHERE type = 'trigger' AND name = ?",
                                       [.text(name)])?.stringValue
    guard stored != sql else { return }
    if stored != nil { try connection.execute("DROP TRIGGER \(SQL.identifier(name))") }
    try connection.execute(sql)
}

/// `BEFORE UPDATE OF globalid`: a row's global id, once set, is its identity and cannot change
/// (a NULL one may be filled, as the insert triggers do).
func guardTriggerSQL(_ table: TrackedTable) -> (name: String, sql: String) {
    let name = "pkgbuild_guard_\(table.name)"
    let g = SQL.identifier(table.globalIDColumn)
    let message = "pkgbuild: the \(table.globalIDColumn) of a row of \(table.name) cannot be changed"
    return (name, """
        CREATE TRIGGER \(SQL.identifier(name)) BEFORE UPDATE OF \(g) ON \(SQL.identifier(table.name)) FOR EACH ROW \
        WHEN OLD.\(g) IS NOT NULL AND NEW.\(g) IS NOT OLD.\(g) \
        BEGIN SELECT RAISE(ABORT, \(SQL.literal(message))); END
        """)
}
