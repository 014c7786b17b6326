import Extract
import Foundation
import Geodatabase
import Geometry
import SQLite
@testable import Sync
import TestSupport
import Testing

/// A sync-enabled copy of the demo source and packages made from it.
///
/// Packages are made the way `create` makes them, by hand: the enabled source file copied, the
/// source-only tables and triggers dropped, rows outside the area (by bounding box, enough for
/// the point and park tests here) deleted, change tracking installed, the replica registered
/// at the source and recorded in the package, and a manifest written.
final class SyncFixture {
    let directory: TemporaryDirectory
    let sourcePath: String

    /// The default test area: Kodiak, Fairbanks and Anchorage airports, and seven parks.
    static let area = (minX: -160.0, minY: 57.0, maxX: -140.0, maxY: 66.0)
    static var areaWKT: String {
        let a = area
        return "POLYGON ((\(a.minX) \(a.minY),\(a.maxX) \(a.minY),\(a.maxX) \(a.maxY),\(a.minX) \(a.maxY),\(a.minX) \(a.minY)))"
    }

    init(source name: String = "demo/alaska_source.gpkg") throws {
        directory = try TemporaryDirectory("pkgbuild-sync")
        sourcePath = try directory.copy(testdata: name, as: "source.gpkg")
        let source = try GeoPackage(path: sourcePath)
        try SourceGeodatabase(connection: source.connection).enable()
    }

    private init(directory: TemporaryDirectory) throws {
        self.directory = directory
        sourcePath = directory.path("source.gpkg")
    }

    func openSource() throws -> GeoPackage { try GeoPackage(path: sourcePath) }

    /// Makes a package of the area (a box) and registers it.
    /// - Returns: the package directory.
    @discardableResult
    func makePackage(_ name: String = "area.pkg", box: (minX: Double, minY: Double, maxX: Double, maxY: Double) = SyncFixture.area,
                     cuts: [String: LayerCut] = [:]) throws -> URL {
        let packageURL = directory.url.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: packageURL, withIntermediateDirectories: true)
        let dataPath = packageURL.appendingPathComponent("data.gpkg").path
        let source = try openSource()
        let sourceGDB = SourceGeodatabase(connection: source.connection)
        let generation = try sourceGDB.generation()
        // A consistent copy, with the WAL folded in.
        try source.connection.execute("VACUUM INTO '\(dataPath)'")
        let wkt = "POLYGON ((\(box.minX) \(box.minY),\(box.maxX) \(box.minY),\(box.maxX) \(box.maxY),\(box.minX) \(box.maxY),\(box.minX) \(box.minY)))"
        let replicaID = GlobalID.make()
        try sourceGDB.registerReplica(ReplicaRegistration(id: replicaID, generation: generation, areaWKT: wkt,
                                                          areaCRS: "EPSG:4326", layers: ["parks", "airports", "park_visitors"]))
        try sourceGDB.activateReplica(id: replicaID)

        let package = try GeoPackage(path: dataPath)
        let c = package.connection
        for trigger in try c.query("SELECT name FROM sqlite_master WHERE type = 'trigger' AND name LIKE 'pkgbuild_log_%'") {
            try c.execute("DROP TRIGGER \"\(trigger[0].stringValue ?? "")\"")
        }
        for table in ["pkgbuild_changes", "pkgbuild_replicas", "pkgbuild_replica_syncs"] {
            try c.execute("DROP TABLE IF EXISTS \(table)")
        }
        for (table, rtree) in [("airports", "rtree_airports_geom"), ("parks", "rtree_parks_geom")] {
            try c.execute("""
                DELETE FROM \(table) WHERE fid NOT IN (SELECT id FROM \(rtree)
                  WHERE maxx >= ? AND minx <= ? AND maxy >= ? AND miny <= ?)
                """, [.real(box.minX), .real(box.maxX), .real(box.minY), .real(box.maxY)])
        }
        try c.execute("PRAGMA journal_mode = DELETE")
        try PackageChangeTracking(connection: c).install()
        try PackageReplica(connection: c).initialize(replicaID: replicaID, sourceGeneration: generation)

        func layer(_ name: String, _ type: String, _ geometry: String?) throws -> PackageManifest.Layer {
            let count = Int(try c.scalar("SELECT count(*) FROM \(name)")?.int64Value ?? 0)
            return PackageManifest.Layer(name: name, dataType: type, geometryType: geometry, crs: geometry == nil ? nil : "EPSG:4326",
                                         count: count, cut: cuts[name] ?? LayerCut(spatial: geometry != nil))
        }
        let manifest = PackageManifest(
            tool: .init(name: "pkgbuild", version: "test"), created: "2026-01-01T00:00:00Z", replicaID: replicaID,
            source: .init(kind: "geopackage", location: sourcePath, generation: generation),
            area: .init(geojson: .null, wkt: wkt, crs: "EPSG:4326"),
            layers: [try layer("parks", "features", "MULTIPOLYGON"), try layer("airports", "features", "POINT"),
                     try layer("park_visitors", "attributes", nil)],
            tiles: nil, files: [:])
        try manifest.encoded().write(to: packageURL.appendingPathComponent("manifest.json"))
        return packageURL
    }

    func openPackage(_ url: URL) throws -> GeoPackage {
        try GeoPackage(path: url.appendingPathComponent("data.gpkg").path)
    }

    /// Runs a sync of the package.
    func sync(_ url: URL, policy: ConflictPolicy = .fail, direction: SyncDirection = .bidirectional,
              dryRun: Bool = false, crashHook: (@Sendable (SyncCrashPoint) throws -> Void)? = nil) throws -> SyncReport {
        try SyncSession(package: url, options: SyncOptions(source: sourcePath, direction: direction, policy: policy,
                                                           dryRun: dryRun, crashHook: crashHook)).run()
    }
}

/// A table's rows by global id: every column but the fid (local to each database), geometries
/// decoded so that equal geometries compare equal whatever their blob.
func contents(_ connection: Connection, _ table: String) throws -> [String: [String: String]] {
    let columns = try connection.query("SELECT name FROM pragma_table_info(?)", [.text(table)])
        .compactMap { $0[0].stringValue }.filter { $0 != "fid" }
    var result: [String: [String: String]] = [:]
    for row in try connection.query("SELECT \(columns.map { "\"\($0)\"" }.joined(separator: ", ")) FROM \"\(table)\"") {
        var values: [String: String] = [:]
        for (column, value) in zip(columns, row) {
            if case .blob(let bytes) = value, let geometry = try? GeoPackageBinary(bytes: bytes) {
                values[column] = geometry.geometry.wkt
            } else {
                values[column] = value.description
            }
        }
        result[values["globalid"] ?? ""] = values
    }
    return result
}

/// A point geometry blob as GeoPackage stores it.
func pointBlob(_ x: Double, _ y: Double, envelope: GeoPackageEnvelopeKind = .none) -> SQLiteValue {
    .blob(GeoPackageBinary(geometry: .point(Point(x: x, y: y)), srsID: 4326, envelopeKind: envelope).encoded())
}

struct SimulatedCrash: Error {}

extension SyncFixture {
    /// An identical copy of the source and of a package (same replica, same pending edits).
    func clone(package url: URL) throws -> (SyncFixture, URL) {
        let copy = try SyncFixture(copyOf: self)
        let packageCopy = copy.directory.url.appendingPathComponent(url.lastPathComponent)
        try FileManager.default.createDirectory(at: packageCopy, withIntermediateDirectories: true)
        let package = try openPackage(url)
        try package.connection.execute("VACUUM INTO '\(packageCopy.appendingPathComponent("data.gpkg").path)'")
        try FileManager.default.copyItem(at: url.appendingPathComponent("manifest.json"),
                                         to: packageCopy.appendingPathComponent("manifest.json"))
        return (copy, packageCopy)
    }

    private convenience init(copyOf other: SyncFixture) throws {
        try self.init(directory: TemporaryDirectory("pkgbuild-sync"))
        let source = try other.openSource()
        try source.connection.execute("VACUUM INTO '\(sourcePath)'")
    }

    /// Every synced table of the package and the source, by global id.
    func snapshot(_ url: URL) throws -> [String: [String: [String: String]]] {
        let package = try openPackage(url), source = try openSource()
        var result: [String: [String: [String: String]]] = [:]
        for table in ["airports", "parks", "park_visitors"] {
            result["package." + table] = try contents(package.connection, table)
            result["source." + table] = try contents(source.connection, table)
        }
        return result
    }
}
