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
    private let package: Connection
    private let projections: LayerProjections
    private var filterStatements: [String: Statement] = [:]
    private var relatedStatements: [String: Statement] = [:]
    /// Per related-only table (lower-cased): its key-based links to spatial tables, as
    /// (this table's column, the spatial table, its column).
    private var links: [String: [(column: String, table: String, otherColumn: String)]] = [:]
    /// Related-only tables whose links are kept in mapping tables: they keep the rows they
    /// have, and take those the source links to a row the package has.
    private var mapped: Set<String> = []
    private let mappingLinks: MappingLinks

    /// - Parameters:
    ///   - areas: the area of interest per table (lower-cased name), in the CRS of that
    ///     table's geometries at the source; a table without one takes every row.
    ///   - tables: the synced tables; a table without a spatial cut that is linked to a
    ///     spatial one by a relationship is related-only, as `create` took it.
    ///   - relationships: the package's relationships.
    ///   - projections: the transformations of reprojected tables into the package's CRS.
    ///   - mappingLinks: the links of mapping tables, for related-only tables linked through them.
    init(areas: [String: Geometry], source: Connection, package: Connection, tables: [SyncTable],
         relationships: [Relationship], projections: LayerProjections, mappingLinks: MappingLinks) throws {
        self.projections = projections
        self.mappingLinks = mappingLinks
        geos = try GEOSContext()
        for (table, area) in areas { self.areas[table] = (area, try geos.prepare(area)) }
        self.source = source
        self.package = package
        let spatial = Set(tables.filter { $0.cut.spatial }.map { $0.name.lowercased() })
        for table in tables where !table.cut.spatial && table.cut.relatedRows > 0 {
            let name = table.name.lowercased()
            for r in relationships {
                let ends = [(r.originTable, r.originKey, r.destinationTable, r.destinationKey),
                            (r.destinationTable, r.destinationKey, r.originTable, r.originKey)]
                for (this, thisKey, other, otherKey) in ends where this.lowercased() == name && spatial.contains(other.lowercased()) {
                    if case .keys = r.storage {
                        links[name, default: []].append((thisKey, other, otherKey))
                    } else {
                        mapped.insert(name)
                    }
                }
            }
        }
    }

    /// True for a table `create` took only the rows of that are related to rows in the area.
    func isRelatedOnly(_ table: SyncTable) -> Bool {
        let name = table.name.lowercased()
        return links[name] != nil || mapped.contains(name)
    }

    /// True when the source row (its current values) belongs in the package.
    func contains(_ row: RowValues, of table: SyncTable) throws -> Bool {
        if let filter = table.cut.filter, !(try passesFilter(filter, row: row, table: table)) { return false }
        let name = table.name.lowercased()
        if let links = links[name] {
            for link in links where try isLinked(row[link.column] ?? .null, to: link.table, column: link.otherColumn) {
                return true
            }
            return false
        }
        if mapped.contains(name) {
            return try isLinked(row[table.globalIDColumn] ?? .null, to: table.name, column: table.globalIDColumn)
                || mappingLinks.isLinkedToPackagedRow(row, of: table)
        }
        guard table.cut.spatial, let prepared = areas[table.name.lowercased()]?.prepared, let column = table.geometryColumn else { return true }
        guard case .blob(let bytes)? = row[column], !bytes.isEmpty,
              let decoded = try? GeoPackageBinary(bytes: bytes), !decoded.isEmpty else { return false }
        return try prepared.intersects(decoded.geometry)
    }

    /// The geometry blob the package stores for a source geometry: cut to the area for a
    /// clipped layer, then transformed into the package's CRS for a reprojected one.
    func packageGeometry(_ value: SQLiteValue, of table: SyncTable) throws -> SQLiteValue {
        try projections.toPackage(try clipped(value, of: table), of: table)
    }

    private func clipped(_ value: SQLiteValue, of table: SyncTable) throws -> SQLiteValue {
        guard table.cut.clipped, let area = areas[table.name.lowercased()]?.area, case .blob(let bytes) = value,
              let decoded = try? GeoPackageBinary(bytes: bytes), !decoded.isEmpty else { return value }
        guard let clipped = try geos.clip(decoded.geometry, to: area) else { return .null }
        return .blob(GeoPackageBinary(geometry: clipped, srsID: decoded.srsID).encoded())
    }

    /// True when the package has a row of `table` whose `column` equals `value`.
    private func isLinked(_ value: SQLiteValue, to table: String, column: String) throws -> Bool {
        if value.isNull { return false }
        let sql = "SELECT 1 FROM \(quoted(table)) WHERE \(quoted(column)) = ? LIMIT 1"
        let statement: Statement
        if let cached = relatedStatements[sql] {
            statement = cached
        } else {
            statement = try package.prepare(sql)
            relatedStatements[sql] = statement
        }
        statement.reset()
        defer { statement.reset() }
        try statement.bind([value])
        return try statement.step()
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
    // Called per row while building statements: skip Foundation's search for the common case.
    guard name.utf8.contains(UInt8(ascii: "\"")) else { return "\"" + name + "\"" }
    return "\"" + name.split(separator: "\"", omittingEmptySubsequences: false).joined(separator: "\"\"") + "\""
}
