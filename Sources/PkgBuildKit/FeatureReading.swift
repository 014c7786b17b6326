/// Reading rows of a layer into ``Feature`` values, and finding one row by ``FeatureID``.
import Geodatabase
import Geometry
import SQLite

/// How one layer's rows are read: the columns in a fixed order and the SQL that selects them.
struct FeatureReader {
    let layer: LayerInfo
    let key: String
    let attributeColumns: [String]

    init(layer: LayerInfo) {
        self.layer = layer
        key = layer.primaryKey ?? "rowid"
        let excluded = Set([key, layer.globalIDColumn, layer.geometryColumn?.name].compactMap { $0.map { SQLName($0) } })
        attributeColumns = layer.fields.map(\.name).filter { !excluded.contains(SQLName($0)) }
    }

    /// `SELECT key, globalid-or-NULL, geometry-or-NULL, attributes... FROM table`, without WHERE.
    /// `alias` prefixes every column (for joins).
    func selectSQL(alias: String = "t") -> String {
        let a = alias + "."
        var columns = [a + SQL.identifier(key)]
        columns.append(layer.globalIDColumn.map { a + SQL.identifier($0) } ?? "NULL")
        columns.append(layer.geometryColumn.map { a + SQL.identifier($0.name) } ?? "NULL")
        columns += attributeColumns.map { a + SQL.identifier($0) }
        return "SELECT \(columns.joined(separator: ", ")) FROM \(SQL.identifier(layer.name)) \(alias)"
    }

    /// The feature of a row selected by ``selectSQL(alias:)``.
    /// - Throws: `GeometryError` when the geometry blob is not GeoPackage binary.
    func feature(from row: [SQLiteValue]) throws -> Feature {
        var geometry: Geometry?
        if case .blob(let bytes) = row[2] {
            do {
                geometry = try GeoPackageBinary(bytes: bytes).geometry
            } catch let error as GeometryError {
                throw PackageError(.storage, "layer '\(layer.name)' fid \(row[0].int64Value ?? 0): unreadable geometry: \(error.message)")
            }
        }
        let attributes = attributeColumns.enumerated().map { Attribute(name: $1, value: row[3 + $0]) }
        return Feature(layer: layer.name, fid: row[0].int64Value ?? 0, globalID: row[1].stringValue,
                       attributes: attributes, geometry: geometry)
    }

    /// The features matching `whereSQL` (which may refer to the table as `t`).
    func features(where whereSQL: String?, _ arguments: [SQLiteValue] = [], orderBy: String? = nil,
                  limit: Int? = nil, in connection: Connection) throws -> [Feature] {
        var sql = selectSQL()
        if let whereSQL { sql += " WHERE " + whereSQL }
        sql += " ORDER BY " + (orderBy ?? "t.\(SQL.identifier(key))")
        if let limit { sql += " LIMIT \(limit)" }
        return try connection.query(sql, arguments).map(feature(from:))
    }

    /// The SQL condition and argument that select the row `id` names.
    /// - Throws: ``PackageError`` (`unknownFeature`) for a globalid on a layer without one.
    func condition(for id: FeatureID) throws -> (sql: String, argument: SQLiteValue) {
        switch id {
        case .fid(let fid):
            return ("t.\(SQL.identifier(key)) = ?", .integer(fid))
        case .globalID(let text):
            guard let g = layer.globalIDColumn else {
                throw PackageError(.unknownFeature, "layer '\(layer.name)' has no globalid column; name its rows by fid")
            }
            // Stored ids keep whatever form they were adopted in; compare the bare UUID.
            let match = GlobalID.condition("t.\(SQL.identifier(g))", typed: text)
            return (match.sql, .text(match.argument))
        }
    }

    /// The one feature `id` names.
    /// - Throws: ``PackageError`` (`unknownFeature`) naming the layer and the id when none.
    func feature(_ id: FeatureID, in connection: Connection) throws -> Feature {
        let (sql, argument) = try condition(for: id)
        guard let feature = try features(where: sql, [argument], limit: 1, in: connection).first else {
            throw PackageError(.unknownFeature, "layer '\(layer.name)' has no feature with \(id)")
        }
        return feature
    }
}
