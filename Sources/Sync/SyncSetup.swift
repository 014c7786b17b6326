/// What a sync and a verify work from, read once before anything is written: both schemas,
/// the synced tables with the filters the source registered, the area in each layer's CRS at
/// the source, and the transformations of reprojected layers.
import Geodatabase
import Geometry
import PackageFormat
import SQLite
import SourceDrivers

/// The tables, areas and projections of one package against its source.
///
/// - Important: Holds a GEOS and a PROJ context for the thread that runs the sync.
struct SyncSetup {
    let packageSchema: GeoPackageSchema
    let tables: [SyncTable]
    let geos: GEOSContext
    let proj: PROJContext
    /// The area of interest per spatial table, in its CRS at the source.
    let areas: [SQLName: Geometry]
    let projections: LayerProjections

    /// - Parameters:
    ///   - state: the package's state with the registered area in place (``RegisteredScope``).
    ///   - scope: the area and filters the source registered for the replica.
    init(package: Connection, source: any SyncSource, state: PackageSyncState, scope: RegisteredScope,
         manifest: PackageManifest?) throws {
        packageSchema = try GeoPackageSchema.read(from: package)
        tables = try scope.applied(to: SyncTables.load(package: package, sourceTables: try source.trackedTables(),
                                                       packageSchema: packageSchema, manifest: manifest), source: source)
        geos = try GEOSContext()
        proj = try PROJContext()
        areas = try SyncTables.areas(for: tables, state: state, source: source, geos: geos, proj: proj)
        projections = try LayerProjections(tables: tables, package: packageSchema, source: source, geos: geos, proj: proj)
    }
}
