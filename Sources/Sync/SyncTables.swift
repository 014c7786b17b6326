/// The tables a package syncs, checked against the source's schema, and the area of interest
/// each spatial layer is selected by.
import Foundation
import Geodatabase
import Geometry
import PackageFormat
import SQLite
import SourceDrivers

enum SyncTables {
    /// The package's tracked tables, each checked against the same table at the source.
    /// - Throws: ``SyncError`` (`schemaChanged`) naming the table and column when a synced
    ///   table's columns at the source are not those the package was built with;
    ///   (`unsupportedLayer`) for a layer this sync cannot carry.
    static func load(package: Connection, sourceTables: [SourceTable], packageSchema: GeoPackageSchema,
                     manifest: PackageManifest?) throws -> [SyncTable] {
        let packageTables = try PackageChangeTracking(connection: package).trackedTables()
        let cuts = Dictionary(try PackageMetadata.layerCuts(in: package).map { (SQLName($0.key), $0.value) },
                              uniquingKeysWith: { first, _ in first })
        guard !packageTables.isEmpty else {
            throw SyncError(.notAPackage, "\(package.path) has no tables under change tracking")
        }
        return try packageTables.map { tracked in
            guard let sourceTable = sourceTables.first(where: { SQLName($0.name) == SQLName(tracked.name) }) else {
                throw SyncError(.schemaChanged, "source schema changed since the package was built: table '\(tracked.name)' is no longer synced at the source")
            }
            try compareColumns(table: tracked.name, package: package, source: sourceTable)
            let cut = cuts[SQLName(tracked.name)]
                ?? manifest?.layers.first { SQLName($0.name) == SQLName(tracked.name) }?.cut
            let packageLayer = packageSchema.layer(named: tracked.name)
            let geometry = packageLayer?.geometryColumn
            return SyncTable(name: tracked.name, keyColumn: tracked.keyColumn, globalIDColumn: tracked.globalIDColumn,
                             columns: tracked.columns, geometryColumn: geometry?.name, packageSRSID: geometry?.srsID,
                             sourceSRSID: sourceTable.geometry?.srsID,
                             cut: cut ?? LayerCut(spatial: geometry != nil), packageGeometryType: geometry?.declaredType,
                             sourceGeometryType: sourceTable.geometry?.declaredType)
        }
    }

    /// Refuses a table whose columns (names and declared types) differ between the databases
    /// (``SchemaMigration`` has taken in the columns added at the source before this runs).
    private static func compareColumns(table: String, package: Connection, source: SourceTable) throws {
        if let added = try SchemaMigration.compare(table: table, package: package, source: source).first {
            throw SyncError(.schemaChanged, """
                schema of '\(table)' differs between package and source: column '\(table).\(added.column.name)' \
                was added at the source and is not in the package (side: source)
                """)
        }
    }

    /// The area of interest per spatial table, in the CRS of the table's geometries at the
    /// source (where rows are selected): the area as the source registered it (in `state`,
    /// see `RegisteredScope`), transformed with its edges densified when the layer is in another CRS, as
    /// `create` selected it. Empty when the package has no area (every row is in).
    /// - Throws: ``SyncError`` (`unsupportedLayer`) when PROJ does not know a CRS or cannot
    ///   take the area into a layer's.
    static func areas(for tables: [SyncTable], state: PackageSyncState,
                      source: any SyncSource, geos: GEOSContext, proj: PROJContext) throws -> [SQLName: Geometry] {
        let wkt = state.areaWKT
        let crs = state.areaCRS ?? "EPSG:4326"
        guard let wkt, !wkt.isEmpty else { return [:] }
        let area: AreaOfInterest
        do { area = try AreaOfInterest(parsing: wkt, crs: crs, context: geos) } catch {
            throw SyncError(.notAPackage, "the package's area (\(crs)) cannot be read: \(error)")
        }
        var areas: [SQLName: Geometry] = [:]
        for table in tables where table.cut.spatial && table.geometryColumn != nil {
            guard let srsID = table.sourceSRSID, let srs = try source.spatialReferenceSystem(id: srsID) else {
                areas[table.sqlName] = area.geometry
                continue
            }
            let definition = srs.projDefinition
            do {
                let layerCRS = try CoordinateReferenceSystem(definition, context: proj)
                // As `create` took it, so both select the same rows.
                areas[table.sqlName] = try area.geometry(in: layerCRS, proj: proj, geos: geos)
            } catch {
                throw SyncError(.unsupportedLayer, """
                    cannot take the package's area from \(crs) into the CRS of layer '\(table.name)' at the source \
                    (srs_id \(srsID)): \(error)
                    """)
            }
        }
        return areas
    }
}
