/// The rows of a GeoPackage source: read and written by global id through the GeoPackage's
/// own row store, values crossing the seam as neutral ones (a geometry blob as WKB).
import Geodatabase
import Geometry
import SQLite
import SourceDrivers

extension GeoPackageSyncSource {
    public func row(_ globalID: String, in table: TableShape) throws -> SourceRow? {
        try rows.row(globalID, in: table).map { $0.sourceRow(isGeometry: Self.geometryTest(table)) }
    }

    public func globalIDs(in table: TableShape, where column: String, equals value: SourceValue) throws -> [String] {
        try rows.globalIDs(in: table, where: column, is: try value.sqliteValue())
    }

    public func forEachGlobalID(in table: TableShape, _ body: (String) throws -> Void) throws {
        try rows.forEachGlobalID(in: table, body)
    }

    public func value(of column: String, in table: String, where key: String, equals value: SourceValue) throws -> SourceValue? {
        let statement = try statements.statement(
            "SELECT \(SQL.identifier(column)) FROM \(SQL.identifier(table)) WHERE \(SQL.identifier(key)) = ?")
        defer { statement.reset() }
        try statement.bind([try value.sqliteValue()])
        guard try statement.step() else { return nil }
        return SourceValue(statement.value(at: 0), isGeometry: false)
    }

    public func holder(of values: [(column: String, value: SourceValue)], in table: TableShape,
                       besides globalID: String) throws -> String? {
        try rows.holder(of: try values.map { ($0.column, try $0.value.sqliteValue()) }, in: table, besides: globalID)
    }

    /// The filter as `create` ran it: the grammar's rendering in SQLite's dialect, or a filter
    /// from before the grammar as its text (``layerFilter(_:table:)`` let it through).
    public func meets(_ filter: LayerFilter, globalID: String, in table: TableShape) throws -> Bool {
        let name = SQLName(table.name)
        let query = filterQueries[name] ?? {
            let condition = filter.expression?.sqlite ?? "(\(filter.text))"
            return "SELECT 1 FROM \(SQL.identifier(table.name)) WHERE \(SQL.identifier(table.globalIDColumn)) = ? AND \(condition)"
        }()
        filterQueries[name] = query
        let statement = try statements.statement(query)
        defer { statement.reset() }
        try statement.bind([.text(globalID)])
        return try statement.step()
    }

    /// Parses a registered filter against the table's columns; a filter from before the
    /// grammar passes only SQLite's authorizer check (read-only, its own table).
    /// - Throws: ``GeodatabaseError`` (`filter`) naming what the check refuses.
    public func layerFilter(_ text: String, table: String) throws -> LayerFilter {
        LayerFilter(text: text, expression: try WhereFilter(layer: table, expression: text).storedExpression(on: connection, table: table))
    }

    /// True when no trigger but ours and GDAL's is on the table (GDAL's keep this table's
    /// R-tree and feature count, in other tables): SQLite then stores what is written, with
    /// the affinity of the declared type the package's copy of the column has too.
    public func storesAsSent(_ table: TableShape) throws -> Bool {
        try connection.query("SELECT name FROM sqlite_master WHERE type = 'trigger' AND tbl_name = ? COLLATE NOCASE",
                             [.text(table.name)])
            .allSatisfy { SourceGeodatabase.isOwnOrGDALTrigger($0[0].stringValue ?? "", on: table.name, geometryColumn: table.geometryColumn) }
    }

    /// No savepoint per row: a statement SQLite refuses is undone with its triggers' changes
    /// (ON CONFLICT ABORT), and the transaction goes on. Logged by the triggers, or by the
    /// caller while they are dropped (`+UploadLog.swift`).
    func write(_ write: SourceWrite, in table: TableShape) throws -> SourceWriteOutcome {
        do {
            switch write {
            case .insert(let row):
                try rows.insert(try RowValues(row), into: table)
                return .applied(found: true)
            case .update(let globalID, let values):
                return .applied(found: try rows.update(globalID, set: try RowValues(values), in: table))
            case .delete(let globalID):
                return .applied(found: try rows.delete(globalID, from: table))
            }
        } catch let error as SQLiteError where error.isRowRefusal {
            return .refused(SourceRefusal(uniqueColumns: error.isUniqueViolation ? error.uniqueColumns : nil, message: error.message))
        } catch let error as GeometryError {
            return .refused(SourceRefusal(message: "its geometry cannot be stored: \(error)"))
        }
    }

    /// Whether a column of the shape is its geometry column (SQLite compares names without
    /// A-Z case).
    static func geometryTest(_ table: TableShape) -> (String) -> Bool {
        guard let geometry = table.geometryColumn.map({ SQLName($0) }) else { return { _ in false } }
        return geometry.isName
    }
}

extension GeoPackageSyncSource {
    public func rowsByGlobalID(in table: TableShape) throws -> any SourceRowCursor {
        let statement = try connection.prepare("""
            SELECT \(table.columns.map(SQL.identifier).joined(separator: ", ")) FROM \(SQL.identifier(table.name))
            ORDER BY \(SQL.identifier(table.globalIDColumn))
            """)
        return GeoPackageRowCursor(statement: statement, table: table)
    }
}

/// A table's rows stepped out of one statement.
final class GeoPackageRowCursor: SourceRowCursor {
    private let statement: Statement
    private let table: TableShape
    private let isGeometry: (String) -> Bool

    init(statement: Statement, table: TableShape) {
        self.statement = statement
        self.table = table
        isGeometry = GeoPackageSyncSource.geometryTest(table)
    }

    func next() throws -> SourceRow? {
        guard try statement.step() else { return nil }
        return RowValues(columns: table.columns, values: (0..<table.columns.count).map { statement.value(at: $0) })
            .sourceRow(isGeometry: isGeometry)
    }
}
