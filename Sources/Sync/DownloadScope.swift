/// Which source rows belong in a package: the same selection `create` made, applied to one row
/// at a time as source changes come down. A spatial layer keeps the rows whose geometry meets
/// the area of interest, a filtered layer the rows its `--where` keeps, an attribute layer taken
/// whole every row; a clipped layer receives its geometries cut to the area.
import Geodatabase
import Geometry
import SQLite
import SourceDrivers

/// The area of interest and per-layer rules, ready to test source rows.
///
/// - Important: Holds GEOS objects: one owner at a time.
final class DownloadScope {
    private let geos: GEOSContext
    private var areas: [SQLName: (area: Geometry, prepared: PreparedGeometry)] = [:]
    private let package: Connection
    private let projections: LayerProjections
    /// The source, which judges its rows against the layers' filters.
    private let source: any SyncSource
    /// Membership lookups on the package, prepared once.
    private let packageStatements: StatementCache
    /// Per related-only table: its key-based links to spatial tables, as
    /// (this table's column, the spatial table, its column).
    private var links: [SQLName: [(column: String, table: String, otherColumn: String)]] = [:]
    /// Related-only tables whose links are kept in mapping tables: they keep the rows they
    /// have, and take those the source links to a row the package has.
    private var mapped: Set<SQLName> = []
    /// Related-only tables, each with the SQL condition on its package row `r`
    /// that holds while a row of a spatial table in the package relates to it (by key, or by a
    /// link of a synced mapping table); nil when the package cannot tell (its links are kept in
    /// a table that does not sync), and then the rows it has stay.
    private var parentConditions: [SQLName: String?] = [:]
    private let mappingLinks: MappingLinks
    /// Per table: the path a source geometry takes into the package.
    private var paths: [SQLName: LayerGeometryPath] = [:]

    /// - Parameters:
    ///   - areas: the area of interest per table, in the CRS of that
    ///     table's geometries at the source; a table without one takes every row.
    ///   - tables: the synced tables; a table without a spatial cut that is linked to a
    ///     spatial one by a relationship is related-only, as `create` took it.
    ///   - relationships: the package's relationships.
    ///   - projections: the transformations of reprojected tables into the package's CRS.
    ///   - mappingLinks: the links of mapping tables, for related-only tables linked through them.
    init(areas: [SQLName: Geometry], source: any SyncSource, package: Connection, tables: [SyncTable],
         relationships: [Relationship], projections: LayerProjections, mappingLinks: MappingLinks,
         geos: GEOSContext) throws {
        self.projections = projections
        self.mappingLinks = mappingLinks
        self.geos = geos
        for (table, area) in areas { self.areas[table] = (area, try geos.prepare(area)) }
        self.package = package
        self.source = source
        packageStatements = StatementCache(package)
        let spatial = Set(tables.filter { $0.cut.spatial }.map(\.sqlName))
        // Packages built before the cut recorded `relatedOnly` are known by the rows they took.
        for table in tables where !table.cut.spatial && (table.cut.relatedOnly || table.cut.relatedRows > 0) {
            let name = table.sqlName
            var conditions: [String] = []
            var unknown = false
            for r in relationships {
                for end in r.ends where SQLName(end.table) == name && spatial.contains(SQLName(end.otherTable)) {
                    if case .keys = r.storage {
                        links[name, default: []].append((end.key, end.otherTable, end.otherKey))
                        conditions.append(Self.isIn(end.key, value: "p.\(SQL.identifier(end.otherKey))",
                                                    from: "\(SQL.identifier(end.otherTable)) p"))
                    } else {
                        mapped.insert(name)
                        if r.mappingTable.map({ m in !mappingLinks.isMapping(named: m) }) ?? true { unknown = true }
                    }
                }
            }
            for (mapping, this, other) in mappingLinks.mappings(linking: table) where spatial.contains(other.table.sqlName) {
                conditions.append(Self.isIn(this.key, value: "m.\(SQL.identifier(this.column))", from: """
                    \(SQL.identifier(mapping.name)) m JOIN \(SQL.identifier(other.table.name)) p ON p.\(SQL.identifier(other.key)) = m.\(SQL.identifier(other.column))
                    """))
            }
            parentConditions[name] = unknown ? .some(nil) : .some(conditions.isEmpty ? "0" : conditions.joined(separator: " OR "))
        }
    }

    /// The condition that column `column` of the package row `r` is among the values `value`
    /// takes in `from` (NULLs never match). An uncorrelated IN list is built once per
    /// statement, where a correlated EXISTS would scan an unindexed key once per row.
    private static func isIn(_ column: String, value: String, from: String) -> String {
        "coalesce(r.\(SQL.identifier(column)) IN (SELECT \(value) FROM \(from) WHERE \(value) IS NOT NULL), 0)"
    }

    /// True for a table `create` took only the rows of that are related to rows in the area.
    func isRelatedOnly(_ table: SyncTable) -> Bool {
        parentConditions[table.sqlName] != nil
    }

    /// The global ids of the package's rows of a related-only table that no row of a spatial
    /// table in the package relates to any more (by the package's keys and links).
    func packageRowsWithoutParent(of table: SyncTable) throws -> [String] {
        guard case .some(.some(let condition)) = parentConditions[table.sqlName] else { return [] }
        return try package.query("""
            SELECT r.\(SQL.identifier(table.globalIDColumn)) FROM \(SQL.identifier(table.name)) r WHERE NOT (\(condition))
            """).compactMap { $0[0].stringValue }
    }

    /// True when a row of a spatial table in the package relates to the package's row of that
    /// global id (a link made offline may not be at the source yet); when the package cannot
    /// tell, true for a row it has.
    private func hasPackagedParent(_ globalID: SQLiteValue, of table: SyncTable) throws -> Bool {
        guard case .some(let condition) = parentConditions[table.sqlName] else { return false }
        return try packageHasRow("SELECT 1 FROM \(SQL.identifier(table.name)) r WHERE r.\(SQL.identifier(table.globalIDColumn)) = ? AND (\(condition ?? "1"))",
                                 binding: globalID)
    }

    /// True when the source row (its current values) belongs in the package.
    func contains(_ row: RowValues, of table: SyncTable) throws -> Bool {
        try reasonOutside(row, of: table) == nil
    }

    /// Why the source row (its current values) does not belong in the package, in words for
    /// the sync report; nil when it belongs.
    func reasonOutside(_ row: RowValues, of table: SyncTable) throws -> String? {
        if let filter = table.cut.filter, !(try passesFilter(filter, row: row, table: table)) {
            return "it does not meet the layer's filter (\(filter))"
        }
        let name = table.sqlName
        if isRelatedOnly(table) {
            for link in links[name] ?? [] where try isLinked(row[link.column] ?? .null, to: link.table, column: link.otherColumn) {
                return nil
            }
            let related = try mapped.contains(name)
                && (mappingLinks.isLinkedToPackagedRow(row, of: table) || hasPackagedParent(row[table.globalIDColumn] ?? .null, of: table))
            return related ? nil : "no row in the package relates to it"
        }
        guard table.cut.spatial, let prepared = areas[table.sqlName]?.prepared, let column = table.geometryColumn else { return nil }
        guard case .blob(let bytes)? = row[column], !bytes.isEmpty,
              let decoded = try? GeoPackageBinary(bytes: bytes), !decoded.isEmpty else {
            return "it has no geometry, and a spatial layer holds the rows that meet the area"
        }
        return try prepared.intersects(decoded.geometry) ? nil : "its geometry is outside the package's area"
    }

    /// The geometry blob the package stores for a source geometry, by the path `create` took
    /// (``LayerGeometryPath``): cut to the area for a clipped layer, transformed into the
    /// package's CRS for a reprojected one, in the package column's declared type. A blob the
    /// path leaves as it is keeps its bytes; a clip that leaves nothing gives NULL.
    /// - Throws: ``SyncError`` (`unsupportedLayer`) naming the layer when the geometry cannot
    ///   be read, transformed or fitted to the package's column.
    func packageGeometry(_ value: SQLiteValue, of table: SyncTable, globalID: String? = nil) throws -> SQLiteValue {
        let row = globalID.map { " row \($0)" } ?? ""
        guard case .blob(let bytes) = value else { return value }
        let decoded: GeoPackageBinary
        do { decoded = try GeoPackageBinary(bytes: bytes) } catch {
            throw SyncError(.unsupportedLayer, "layer '\(table.name)'\(row): the source's geometry cannot be read: \(error)")
        }
        if decoded.isEmpty { return try projections.toPackage(value, of: table) }
        let stored: Geometry?
        do { stored = try path(of: table).stored(decoded.geometry) } catch let error as SyncError {
            throw error
        } catch {
            throw SyncError(.unsupportedLayer, "layer '\(table.name)'\(row): the source's geometry cannot go into the package: \(error)")
        }
        guard let stored else { return .null }
        let srsID = projections.packageSRSID(of: table) ?? decoded.srsID
        if srsID == decoded.srsID && stored.isIdentical(to: decoded.geometry) { return value }
        return .blob(GeoPackageBinary(geometry: stored, srsID: srsID).encoded())
    }

    /// The geometry path of a table, made once.
    private func path(of table: SyncTable) throws -> LayerGeometryPath {
        let name = table.sqlName
        if let known = paths[name] { return known }
        let clipArea = table.cut.clipped ? areas[name]?.prepared : nil
        let path = LayerGeometryPath(context: geos, clipArea: clipArea, transform: projections.forward(of: table),
                                     declared: table.packageGeometryType ?? DeclaredGeometryType(type: .geometry, z: 2, m: 2))
        paths[name] = path
        return path
    }

    /// True when the package has a row of `table` whose `column` equals `value`.
    private func isLinked(_ value: SQLiteValue, to table: String, column: String) throws -> Bool {
        if value.isNull { return false }
        return try packageHasRow("SELECT 1 FROM \(SQL.identifier(table)) WHERE \(SQL.identifier(column)) = ? LIMIT 1", binding: value)
    }

    /// True when `sql` (one parameter) finds a row in the package; statements are prepared once.
    private func packageHasRow(_ sql: String, binding value: SQLiteValue) throws -> Bool {
        let statement = try packageStatements.statement(sql)
        defer { statement.reset() }
        try statement.bind([value])
        return try statement.step()
    }

    /// Evaluates the layer's `--where` (as ``RegisteredScope`` parsed or checked it) on the
    /// source row.
    private func passesFilter(_ filter: String, row: RowValues, table: SyncTable) throws -> Bool {
        guard let globalID = row[table.globalIDColumn]?.stringValue else { return false }
        return try source.meets(LayerFilter(text: filter, expression: table.filterExpression), globalID: globalID, in: table.shape)
    }
}
