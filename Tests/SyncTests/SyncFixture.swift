import Extract
import Foundation
import GeoPackageSource
import Geodatabase
import Geometry
import PkgBuildCLI
import SQLite
import SourceDrivers
@testable import Sync
import TestSupport
import Testing

/// A sync-enabled copy of the demo source and packages made from it.
///
/// Packages are made by `pkgbuild create`, in-process.
final class SyncFixture {
    let directory: TemporaryDirectory
    let sourcePath: String

    /// The default test area: Kodiak, Fairbanks and Anchorage airports, and seven parks.
    static let area = (minX: -160.0, minY: 57.0, maxX: -140.0, maxY: 66.0)

    init(source name: String = "demo/alaska_source.gpkg") throws {
        // Syncs run through `SyncSession` need the driver the CLI registers for its own runs.
        SourceRegistry.register(GeoPackageSourceDriver())
        directory = try TemporaryDirectory("pkgbuild-sync")
        sourcePath = try directory.copy(testdata: name, as: "source.gpkg")
        let source = try GeoPackage(path: sourcePath)
        try SourceGeodatabase(connection: source.connection).enable()
    }

    private init(directory: TemporaryDirectory) throws {
        SourceRegistry.register(GeoPackageSourceDriver())
        self.directory = directory
        sourcePath = directory.path("source.gpkg")
    }

    func openSource() throws -> GeoPackage { try GeoPackage(path: sourcePath) }

    /// The source as sync sees it, through the GeoPackage driver.
    func openSyncSource() throws -> any SyncSource {
        try GeoPackageSourceDriver().openSyncSource(sourcePath, options: SourceOpenOptions())
    }

    /// Makes a package of the area (a box) with `pkgbuild create`, which registers it.
    /// - Returns: the package directory.
    @discardableResult
    func makePackage(_ name: String = "area.pkg", box: (minX: Double, minY: Double, maxX: Double, maxY: Double) = SyncFixture.area,
                     arguments: [String] = []) throws -> URL {
        let packageURL = directory.url.appendingPathComponent(name)
        let result = CLI.run(["create", "--area=\(box.minX),\(box.minY),\(box.maxX),\(box.maxY)", "--features", sourcePath,
                              "--output", packageURL.path] + arguments)
        guard result.exitCode == 0 else {
            throw SyncError(.invalidArgument, "create failed: \(result.stderr)")
        }
        return packageURL
    }

    func openPackage(_ url: URL) throws -> GeoPackage {
        try GeoPackage(path: url.appendingPathComponent("data.gpkg").path)
    }

    /// GDAL's validator finds nothing wrong with the source or the package's data.gpkg: our
    /// writes (rows, R-tree triggers' boxes, downloads, mapping links) as GDAL judges them.
    func expectGDALValid(_ url: URL, sourceLocation: SourceLocation = #_sourceLocation) throws {
        for path in [sourcePath, url.appendingPathComponent("data.gpkg").path] {
            let findings = try GDALValidator.findings(path)
            #expect(findings.isEmpty, "validate_gpkg.py \(path): \(findings)", sourceLocation: sourceLocation)
        }
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

/// An edit made the way an office user makes it: GDAL's SQL on the file (`ogrinfo -sql`, its
/// own connection and functions, its update-mode open).
func ogrSQL(_ path: String, _ sql: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
    let result = try runProcess("/usr/bin/ogrinfo", ["-q", path, "-sql", sql])
    try #require(result.status == 0, "ogrinfo -sql \(sql): \(result.stderr)", sourceLocation: sourceLocation)
}
