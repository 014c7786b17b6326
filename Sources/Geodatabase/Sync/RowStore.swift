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
    /// The SELECT, INSERT, UPDATE and DELETE of each table and column list, prepared once and
    /// found by shape: quoting names, and hashing the SQL text, cost more than the lookup.
    private var prepared: [StatementKey: Statement] = [:]

    private struct StatementKey: Hashable {
        enum Kind { case select, insert, update, delete }
        var kind: Kind
        var shape: TableShape
    }

    public init(connection: Connection) {
        self.connection = connection
        statements = StatementCache(connection)
    }

    /// The row of that global id (the shape's columns), or nil.
    public func row(_ globalID: String, in table: TableShape) throws -> RowValues? {
        let statement = try statement(.select, table) {
            "SELECT \(table.columns.map(SQL.identifier).joined(separator: ", ")) FROM \(SQL.identifier(table.name)) WHERE \(SQL.identifier(table.globalIDColumn)) = ?"
        }
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
        let statement = try statement(.insert, table.with(columns: columns)) {
            "INSERT INTO \(SQL.identifier(table.name)) (\(columns.map(SQL.identifier).joined(separator: ", "))) VALUES (\(Array(repeating: "?", count: columns.count).joined(separator: ", ")))"
        }
        try run(statement, columns.map { row[$0] ?? .null })
    }

    /// Sets the columns `values` names in the row of that global id.
    /// - Returns: true when the row exists.
    @discardableResult
    public func update(_ globalID: String, set values: RowValues, in table: TableShape) throws -> Bool {
        let columns = values.columns.filter { $0 != table.keyColumn && $0 != table.globalIDColumn }
        guard !columns.isEmpty else { return try row(globalID, in: table.with(columns: [table.globalIDColumn])) != nil }
        let statement = try statement(.update, table.with(columns: columns)) {
            "UPDATE \(SQL.identifier(table.name)) SET \(columns.map { "\(SQL.identifier($0)) = ?" }.joined(separator: ", ")) WHERE \(SQL.identifier(table.globalIDColumn)) = ?"
        }
        try run(statement, columns.map { values[$0] ?? .null } + [.text(globalID)])
        return connection.changes > 0
    }

    /// Deletes the row of that global id.
    /// - Returns: true when there was one.
    @discardableResult
    public func delete(_ globalID: String, from table: TableShape) throws -> Bool {
        let statement = try statement(.delete, table.with(columns: [])) {
            "DELETE FROM \(SQL.identifier(table.name)) WHERE \(SQL.identifier(table.globalIDColumn)) = ?"
        }
        try run(statement, [.text(globalID)])
        return connection.changes > 0
    }

    /// The statement of that kind and shape, rewound and ready to bind.
    private func statement(_ kind: StatementKey.Kind, _ shape: TableShape, _ sql: () -> String) throws -> Statement {
        let key = StatementKey(kind: kind, shape: shape)
        if let known = prepared[key] {
            known.reset()
            return known
        }
        let statement = try connection.prepare(sql())
        prepared[key] = statement
        return statement
    }

    private func run(_ statement: Statement, _ arguments: [SQLiteValue]) throws {
        defer { statement.reset() }
        try statement.bind(arguments)
        while try statement.step() {}
    }
}
