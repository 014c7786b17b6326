/// Checking a key-based relationship against the schema and the data before it is declared:
/// a relationship the data already breaks would be found out only when an extraction or a
/// sync brings the wrong rows along (or none).
import SQLite

/// One end of a relationship being declared: a table and its key column, as the schema spells them.
struct RelationshipEnd {
    var table: String
    var field: FieldInfo
    var name: String { "\(table).\(field.name)" }
}

/// What a key's values are to SQLite's `=`, from its declared type: a TEXT key never equals an
/// INTEGER one, whatever their values look like.
enum KeyKind: String {
    case number, text, blob, geometry

    /// SQLite's affinity rules (INT, CHAR/CLOB/TEXT, BLOB or none, else numeric), with
    /// GeoPackage's DATE and DATETIME (stored as text) and geometry types on top.
    init(declaredType: String, isGeometry: Bool) {
        let type = declaredType.uppercased()
        if isGeometry { self = .geometry }
        else if type.hasPrefix("DATE") || ["CHAR", "CLOB", "TEXT"].contains(where: type.contains) { self = .text }
        else if type.isEmpty || type.contains("BLOB") { self = .blob }
        else { self = .number }
    }
}

extension Relationship {
    /// Everything the schema and the data say against declaring the relationship, each as a
    /// sentence: a column related to itself, keys of kinds that never compare equal, a
    /// geometry key, and keys that repeat where the cardinality allows one row.
    static func problems(origin: RelationshipEnd, destination: RelationshipEnd, cardinality: Cardinality,
                         in connection: Connection) throws -> [String] {
        if origin.table == destination.table && origin.field.name == destination.field.name {
            return ["\(origin.name) is related to itself: the origin and destination keys are the same column"]
        }
        var problems: [String] = []
        let kinds = try [origin, destination].map { try keyKind($0, connection) }
        for (end, kind) in zip([origin, destination], kinds) where kind == .geometry {
            problems.append("\(end.name) is a geometry column and cannot be a key")
        }
        if problems.isEmpty, let first = kinds[0], let second = kinds[1], first != second {
            problems.append("\(origin.name) is \(typeName(origin)) (\(first.rawValue)) and \(destination.name) is "
                + "\(typeName(destination)) (\(second.rawValue)): their values never compare equal")
        }
        guard problems.isEmpty else { return problems }
        if cardinality != .manyToMany, let repeats = try repeatedKeys(origin, connection) {
            problems.append("\(origin.name) repeats (\(repeats)), so a destination row would belong to several origin "
                + "rows: \(cardinality.rawValue) needs a unique origin key (declare it many-to-many if that is meant)")
        }
        if cardinality == .oneToOne, let repeats = try repeatedKeys(destination, connection) {
            problems.append("\(destination.name) repeats (\(repeats)), so an origin row would have several destination "
                + "rows: one-to-one allows one (declare it one-to-many if that is meant)")
        }
        return problems
    }

    /// Rows of the destination whose key is set and matches no origin row: they relate to nothing.
    /// - Throws: `SQLiteError` from the query.
    public func unmatchedDestinationRows(in connection: Connection) throws -> Int {
        let (o, ok, d, dk) = (SQL.identifier(originTable), SQL.identifier(originKey),
                              SQL.identifier(destinationTable), SQL.identifier(destinationKey))
        return Int(try connection.scalar("""
            SELECT count(*) FROM \(d) WHERE \(dk) IS NOT NULL AND NOT EXISTS (SELECT 1 FROM \(o) WHERE \(o).\(ok) = \(d).\(dk))
            """)?.int64Value ?? 0)
    }

    /// `'DENA' in 2 rows, 'LACL' in 2 rows and 3 more values`, or nil when no value repeats.
    private static func repeatedKeys(_ end: RelationshipEnd, _ connection: Connection) throws -> String? {
        let (table, key) = (SQL.identifier(end.table), SQL.identifier(end.field.name))
        let rows = try connection.query("""
            SELECT quote(\(key)), count(*), count(*) OVER () FROM \(table) WHERE \(key) IS NOT NULL
            GROUP BY \(key) HAVING count(*) > 1 ORDER BY count(*) DESC, 1 LIMIT 3
            """)
        guard let first = rows.first else { return nil }
        let shown = rows.map { "\($0[0].stringValue ?? "?") in \($0[1].int64Value ?? 0) rows" }.joined(separator: ", ")
        let more = Int(first[2].int64Value ?? 0) - rows.count
        return more > 0 ? "\(shown) and \(more) more values" : shown
    }

    /// The key's kind by its declaration; for an untyped column (which stores values as they
    /// come), by the one kind its values have, or nil when they are mixed or there are none.
    private static func keyKind(_ end: RelationshipEnd, _ connection: Connection) throws -> KeyKind? {
        let declared = KeyKind(declaredType: end.field.declaredType, isGeometry: try isGeometryColumn(end, connection))
        guard end.field.declaredType.isEmpty else { return declared }
        let (table, key) = (SQL.identifier(end.table), SQL.identifier(end.field.name))
        let stored = try connection.query("SELECT DISTINCT typeof(\(key)) FROM \(table) WHERE \(key) IS NOT NULL LIMIT 2")
            .compactMap { $0[0].stringValue }
        switch stored {
        case ["integer"], ["real"]: return .number
        case ["text"]: return .text
        case ["blob"]: return .blob
        default: return nil
        }
    }

    private static func isGeometryColumn(_ end: RelationshipEnd, _ connection: Connection) throws -> Bool {
        guard try tableExists("gpkg_geometry_columns", in: connection) else { return false }
        return try connection.scalar("""
            SELECT 1 FROM gpkg_geometry_columns WHERE lower(table_name) = lower(?) AND lower(column_name) = lower(?)
            """, [.text(end.table), .text(end.field.name)]) != nil
    }

    private static func typeName(_ end: RelationshipEnd) -> String {
        end.field.declaredType.isEmpty ? "untyped" : end.field.declaredType
    }
}
