/// Which source rows belong in a package: the same selection `create` made, applied to one row
/// at a time as source changes come down. A spatial layer keeps the rows whose geometry meets
/// the area of interest, a filtered layer the rows its `--where` keeps, an attribute layer taken
/// whole every row; a clipped layer receives its geometries cut to the area.
import Geodatabase
import Geometry
import SQLite

/// The area of interest and per-layer rules, ready to test source rows.
///
/// - Important: Holds GEOS objects: one owner at a time.
final class DownloadScope {
    private let geos: GEOSContext
    private var areas: [String: (area: Geometry, prepared: PreparedGeometry)] = [:]
    private let source: Connection
    private var filterStatements: [String: Statement] = [:]

    /// - Parameters:
    ///   - areas: the area of interest per table (lower-cased name), in the CRS of that
    ///     table's geometries at the source; a table without one takes every row.
    init(areas: [String: Geometry], source: Connection) throws {
        geos = try GEOSContext()
        for (table, area) in areas { self.areas[table] = (area, try geos.prepare(area)) }
        self.source = source
    }

    /// True when the source row (its current values) belongs in the package.
    func contains(_ row: RowValues, of table: SyncTable) throws -> Bool {
        if let filter = table.cut.filter, !(try passesFilter(filter, row: row, table: table)) { return false }
        guard table.cut.spatial, let prepared = areas[table.name.lowercased()]?.prepared, let column = table.geometryColumn else { return true }
        guard case .blob(let bytes)? = row[column], !bytes.isEmpty,
              let decoded = try? GeoPackageBinary(bytes: bytes), !decoded.isEmpty else { return false }
        return try prepared.intersects(decoded.geometry)
    }

    /// The geometry blob the package stores for a source geometry: cut to the area for a
    /// clipped layer, unchanged otherwise.
    func packageGeometry(_ value: SQLiteValue, of table: SyncTable) throws -> SQLiteValue {
        guard table.cut.clipped, let area = areas[table.name.lowercased()]?.area, case .blob(let bytes) = value,
              let decoded = try? GeoPackageBinary(bytes: bytes), !decoded.isEmpty else { return value }
        guard let clipped = try geos.clip(decoded.geometry, to: area) else { return .null }
        return .blob(GeoPackageBinary(geometry: clipped, srsID: decoded.srsID).encoded())
    }

    /// Evaluates the layer's `--where` (checked by `create` when the package was built) on the
    /// source row.
    private func passesFilter(_ filter: String, row: RowValues, table: SyncTable) throws -> Bool {
        let statement: Statement
        if let cached = filterStatements[table.name] {
            statement = cached
        } else {
            statement = try source.prepare("""
                SELECT 1 FROM \(quoted(table.name)) WHERE \(quoted(table.globalIDColumn)) = ? AND (\(filter))
                """)
            filterStatements[table.name] = statement
        }
        statement.reset()
        defer { statement.reset() }
        try statement.bind([row[table.globalIDColumn] ?? .null])
        return try statement.step()
    }
}

/// `name` as an SQL identifier in double quotes.
func quoted(_ name: String) -> String {
    "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
}
