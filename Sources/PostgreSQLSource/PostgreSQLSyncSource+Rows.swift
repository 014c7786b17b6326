/// The rows of a PostgreSQL source, read and written by global id. Values cross the seam as
/// each column's `SourceColumn` says (geometries as WKB, timestamps as UTC text...).
import Geodatabase
import Geometry
import PostgreSQL
import SourceDrivers

extension PostgreSQLSyncSource {
    public func row(_ globalID: String, in table: TableShape) throws -> SourceRow? {
        let tracked = try self.tracked(table.name)
        let select = try selectList(table.columns, of: tracked)
        guard let row = try connection.queryFirst("""
            SELECT \(select.sql) FROM \(database.qualified(tracked.catalog.name)) WHERE \(gid(tracked)) = $1::uuid
            """, [.text(globalID)]) else { return nil }
        return try sourceRow(row, select.columns)
    }

    /// One query for the batch (`= ANY` of the ids), where one a row would cost a round trip
    /// to the server each. An id that is not a UUID in the form UUID parses is read alone, as
    /// ``row(_:in:)`` reads it.
    public func rows(_ globalIDs: [String], in table: TableShape) throws -> [SourceRow?] {
        let tracked = try self.tracked(table.name)
        let select = try selectList(table.columns, of: tracked)
        let uuids = Set(globalIDs.compactMap(GlobalID.normalized))
        var found: [String: SourceRow] = [:]
        found.reserveCapacity(uuids.count)
        if !uuids.isEmpty {
            for row in try connection.query("""
                SELECT upper(\(gid(tracked))::text), \(select.sql) FROM \(database.qualified(tracked.catalog.name))
                WHERE \(gid(tracked)) = ANY ($1::uuid[])
                """, [.text(PostgreSQLQuoting.textArray(Array(uuids)))]) {
                guard let id = row.string(0) else { continue }
                found[id] = try sourceRow(row, select.columns, from: 1)
            }
        }
        return try globalIDs.map { id in
            guard let uuid = GlobalID.normalized(id) else { return try row(id, in: table) }
            return found[uuid]
        }
    }

    /// Every statement is a round trip to the server.
    public var readsBatchesFaster: Bool { true }

    public func globalIDs(in table: TableShape, where column: String, equals value: SourceValue) throws -> [String] {
        let tracked = try self.tracked(table.name)
        let source = try self.column(column, of: tracked)
        let written = try source.parameter(value, placeholder: 1)
        return try connection.query("""
            SELECT \(gidText(tracked)) FROM \(database.qualified(tracked.catalog.name))
            WHERE \(PostgreSQLQuoting.identifier(source.name)) = \(written.sql) ORDER BY 1
            """, [written.parameter]).compactMap { $0.string(0) }
    }

    public func forEachGlobalID(in table: TableShape, _ body: (String) throws -> Void) throws {
        let tracked = try self.tracked(table.name)
        try connection.forEachRow(throughCursor: """
            SELECT \(gidText(tracked)) FROM \(database.qualified(tracked.catalog.name)) WHERE \(gid(tracked)) IS NOT NULL
            """) { row in
            if let id = row.string(0) { try body(id) }
        }
    }

    public func value(of column: String, in table: String, where key: String, equals value: SourceValue) throws -> SourceValue? {
        let tracked = try self.tracked(table)
        let wanted = try self.column(column, of: tracked)
        let keyColumn = try self.column(key, of: tracked)
        let written = try keyColumn.parameter(value, placeholder: 1)
        guard let row = try connection.queryFirst("""
            SELECT \(wanted.selectExpression(PostgreSQLQuoting.identifier(wanted.name))) FROM \(database.qualified(tracked.catalog.name))
            WHERE \(PostgreSQLQuoting.identifier(keyColumn.name)) = \(written.sql) LIMIT 1
            """, [written.parameter]) else { return nil }
        return try wanted.value(in: row, at: 0)
    }

    public func holder(of values: [(column: String, value: SourceValue)], in table: TableShape,
                       besides globalID: String) throws -> String? {
        let tracked = try self.tracked(table.name)
        var conditions: [String] = []
        var parameters: [Parameter] = [.text(globalID)]
        for (name, value) in values {
            let column = try self.column(name, of: tracked)
            let written = try column.parameter(value, placeholder: parameters.count + 1)
            conditions.append("\(PostgreSQLQuoting.identifier(column.name)) = \(written.sql)")
            parameters.append(written.parameter)
        }
        return try connection.queryFirst("""
            SELECT \(gidText(tracked)) FROM \(database.qualified(tracked.catalog.name))
            WHERE \(gid(tracked)) IS DISTINCT FROM $1::uuid AND \(conditions.joined(separator: " AND ")) LIMIT 1
            """, parameters)?.string(0)
    }

    /// The filter as `create` ran it: the grammar rendered in PostgreSQL's dialect.
    public func meets(_ filter: LayerFilter, globalID: String, in table: TableShape) throws -> Bool {
        let tracked = try self.tracked(table.name)
        guard let expression = filter.expression else {
            throw SourceError(.unusable, "source \(displayName): the filter '\(filter.text)' of \(table.name) is not in the --where grammar")
        }
        var parameters: [Parameter] = [.text(globalID)]
        let condition = expression.postgreSQL(type: { tracked.column($0)?.type }, parameters: &parameters)
        return try connection.queryFirst("""
            SELECT 1 FROM \(database.qualified(tracked.catalog.name)) WHERE \(gid(tracked)) = $1::uuid AND (\(condition))
            """, parameters) != nil
    }

    /// A registered filter parsed in the grammar against the table's columns. No PostgreSQL
    /// package predates the grammar, so text it cannot parse is refused.
    public func layerFilter(_ text: String, table: String) throws -> LayerFilter {
        let tracked = try self.tracked(table)
        let expression = try WhereFilter(layer: table, expression: text).parsed(columns: tracked.catalog.columns.map(\.name)).parsed
        return LayerFilter(text: text, expression: expression)
    }

    /// A server-side cursor in global-id order: uuid order is the byte order of the ids'
    /// upper-case text, as SQLite orders the package's.
    public func rowsByGlobalID(in table: TableShape) throws -> any SourceRowCursor {
        let tracked = try self.tracked(table.name)
        let select = try selectList(table.columns, of: tracked)
        let cursor = try ServerCursor(connection, """
            SELECT \(select.sql) FROM \(database.qualified(tracked.catalog.name)) ORDER BY \(gid(tracked)) NULLS FIRST
            """)
        return PostgreSQLRowCursor(cursor: cursor) { try self.sourceRow($0, select.columns) }
    }

    // MARK: Helpers

    func gid(_ table: TrackedTable) -> String { PostgreSQLQuoting.identifier(table.globalIDColumn) }

    /// The global id as the package spells it: `{UPPER-CASE}`.
    func gidText(_ table: TrackedTable) -> String { "'{' || upper(\(gid(table))::text) || '}'" }

    func column(_ name: String, of table: TrackedTable) throws -> SourceColumn {
        guard let column = table.column(name) else {
            throw SourceError(.unusable, "source \(displayName): table \(table.catalog.name) has no column \(name)")
        }
        return column
    }

    /// The SELECT list of `names` and the columns it reads, in that order.
    func selectList(_ names: [String], of table: TrackedTable) throws -> (sql: String, columns: [(String, SourceColumn)]) {
        let columns = try names.map { ($0, try column($0, of: table)) }
        return (columns.map { $0.1.selectExpression(PostgreSQLQuoting.identifier($0.1.name)) }.joined(separator: ", "), columns)
    }

    /// A result row as the shape's row: named as the shape names the columns.
    /// - Parameter first: the result column of the first of `columns`.
    func sourceRow(_ row: Row, _ columns: [(String, SourceColumn)], from first: Int = 0) throws -> SourceRow {
        SourceRow(columns: columns.map(\.0), values: try columns.indices.map { try columns[$0].1.value(in: row, at: first + $0) })
    }
}

/// A table's rows fetched from a server-side cursor.
final class PostgreSQLRowCursor: SourceRowCursor {
    private let cursor: ServerCursor
    private let convert: (Row) throws -> SourceRow

    init(cursor: ServerCursor, convert: @escaping (Row) throws -> SourceRow) {
        (self.cursor, self.convert) = (cursor, convert)
    }

    func next() throws -> SourceRow? {
        try cursor.next().map(convert)
    }
}
