/// Reading and writing rows by global id in one GeoPackage (a package, or a GeoPackage
/// source), with statements prepared once per table and shape: a sync touches thousands of
/// rows.
import SQLite

/// Rows of synced tables in one database, addressed by global id.
///
/// - Important: Holds prepared statements of its connection: one owner at a time.
public final class RowStore {
    public let connection: Connection
    private let statements: StatementCache
    /// The SELECT of each table and column list, built once (quoting names costs more than
    /// the lookup).
    private var selects: [TableShape: String] = [:]

    public init(connection: Connection) {
        self.connection = connection
        statements = StatementCache(connection)
    }

    /// The row of that global id (the shape's columns), or nil.
    public func row(_ globalID: String, in table: TableShape) throws -> RowValues? {
        let sql: String
        if let known = selects[table] {
            sql = known
        } else {
            sql = "SELECT \(table.columns.map(SQL.identifier).joined(separator: ", ")) FROM \(SQL.identifier(table.name)) WHERE \(SQL.identifier(table.globalIDColumn)) = ?"
            selects[table] = sql
        }
        let statement = try statements.statement(sql)
        defer { statement.reset() }
        try statement.bind([.text(globalID)])
        guard try statement.step() else { return nil }
        return RowValues(columns: table.columns, values: (0..<table.columns.count).map { statement.value(at: $0) })
    }

    /// The global ids of the rows of `table` whose `column` equals `value` (a relationship key).
    public func globalIDs(in table: TableShape, where column: String, is value: SQLiteValue) throws -> [String] {
        let statement = try statements.statement(
            "SELECT \(SQL.identifier(table.globalIDColumn)) FROM \(SQL.identifier(table.name)) WHERE \(SQL.identifier(column)) = ?")
        defer { statement.reset() }
        try statement.bind([value])
        var globalIDs: [String] = []
        while try statement.step() {
            if let globalID = statement.value(at: 0).stringValue { globalIDs.append(globalID) }
        }
        return globalIDs
    }

    /// The global id of a row other than `globalID` holding all these values, or nil.
    public func holder(of values: [(column: String, value: SQLiteValue)], in table: TableShape,
                       besides globalID: String) throws -> String? {
        guard !values.isEmpty else { return nil }
        let g = SQL.identifier(table.globalIDColumn)
        let condition = values.map { "\(SQL.identifier($0.column)) = ?" }.joined(separator: " AND ")
        return try connection.scalar("SELECT \(g) FROM \(SQL.identifier(table.name)) WHERE \(condition) AND \(g) IS NOT ? LIMIT 1",
                                     values.map(\.value) + [.text(globalID)])?.stringValue
    }

    /// Every global id of the table that is not NULL, one at a time.
    public func forEachGlobalID(in table: TableShape, _ body: (String) throws -> Void) throws {
        let g = SQL.identifier(table.globalIDColumn)
        try connection.forEachRow("SELECT \(g) FROM \(SQL.identifier(table.name)) WHERE \(g) IS NOT NULL") { row in
            if let globalID = row.value(at: 0).stringValue { try body(globalID) }
        }
    }

    /// Inserts a row with the columns it names (never the key: each database numbers its own).
    public func insert(_ row: RowValues, into table: TableShape) throws {
        let columns = row.columns.filter { $0 != table.keyColumn }
        let sql = "INSERT INTO \(SQL.identifier(table.name)) (\(columns.map(SQL.identifier).joined(separator: ", "))) VALUES (\(Array(repeating: "?", count: columns.count).joined(separator: ", ")))"
        try run(sql, columns.map { row[$0] ?? .null })
    }

    /// Sets the columns `values` names in the row of that global id.
    /// - Returns: true when the row exists.
    @discardableResult
    public func update(_ globalID: String, set values: RowValues, in table: TableShape) throws -> Bool {
        let columns = values.columns.filter { $0 != table.keyColumn && $0 != table.globalIDColumn }
        guard !columns.isEmpty else { return try row(globalID, in: table.with(columns: [table.globalIDColumn])) != nil }
        let sql = "UPDATE \(SQL.identifier(table.name)) SET \(columns.map { "\(SQL.identifier($0)) = ?" }.joined(separator: ", ")) WHERE \(SQL.identifier(table.globalIDColumn)) = ?"
        try run(sql, columns.map { values[$0] ?? .null } + [.text(globalID)])
        return connection.changes > 0
    }

    /// Deletes the row of that global id.
    /// - Returns: true when there was one.
    @discardableResult
    public func delete(_ globalID: String, from table: TableShape) throws -> Bool {
        try run("DELETE FROM \(SQL.identifier(table.name)) WHERE \(SQL.identifier(table.globalIDColumn)) = ?", [.text(globalID)])
        return connection.changes > 0
    }

    private func run(_ sql: String, _ arguments: [SQLiteValue]) throws {
        let statement = try statements.statement(sql)
        defer { statement.reset() }
        try statement.bind(arguments)
        while try statement.step() {}
    }
}
