import Foundation
import Geometry
import PkgBuildCLI
import Testing
import TestSupport

/// A package of the demo area (Denali and Anchorage) with the raster basemap at zooms 0-5,
/// built by `pkgbuild create` from a fresh copy of the demo source, to inspect and to break.
struct InspectFixture {
    static let area = "-153.5,60.8,-147.5,64.3"

    let directory: TemporaryDirectory
    let source: String
    let package: String
    var data: String { package + "/data.gpkg" }
    var basemap: String { package + "/basemap.mbtiles" }
    var manifest: String { package + "/manifest.json" }

    init(tiles: Bool = true) throws {
        directory = try TemporaryDirectory("pkgbuild-inspect")
        source = try directory.copy(testdata: "demo/alaska_source.gpkg", as: "source.gpkg")
        package = directory.path("denali.pkg")
        var arguments = ["create", "--area=\(Self.area)", "--features", source, "-o", package]
        if tiles { arguments += ["--tiles", TestData.url("ne_raster_z0-5.mbtiles").path, "--zoom", "0-5"] }
        let created = CLI.run(arguments)
        guard created.exitCode == 0 else { throw InspectFixtureError(message: "create failed: \(created.stderr)") }
    }

    /// Runs SQL with sqlite3 (no GeoPackage functions: triggers calling ST_* must be out of the way).
    @discardableResult
    func sqlite(_ database: String, _ sql: String) throws -> String {
        let r = try runProcess("sqlite3", [database, sql])
        guard r.status == 0 else { throw InspectFixtureError(message: "sqlite3 \(database) failed: \(r.stderr) for \(sql)") }
        return r.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// `pkgbuild inspect --json`, parsed.
    func inspect(_ extra: [String] = []) throws -> [String: Any] {
        let r = CLI.run(["inspect", package, "--json"] + extra)
        guard r.exitCode == 0 else { throw InspectFixtureError(message: "inspect failed (\(r.exitCode)): \(r.stderr)") }
        guard let object = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any] else {
            throw InspectFixtureError(message: "inspect --json printed no object: \(r.stdout)")
        }
        return object
    }

    /// The warnings of `inspect --json` as (code, message).
    func warnings() throws -> [(code: String, message: String)] {
        let list = try inspect()["warnings"] as? [[String: Any]] ?? []
        return list.map { ($0["code"] as? String ?? "", $0["message"] as? String ?? "") }
    }

    /// The messages of warnings with `code`.
    func warnings(_ code: String) throws -> [String] {
        try warnings().filter { $0.code == code }.map(\.message)
    }

    /// The layer of `inspect --json` named `name`.
    func layer(_ name: String, in report: [String: Any]) -> [String: Any]? {
        (report["layers"] as? [[String: Any]])?.first { $0["name"] as? String == name }
    }

    /// Rewrites manifest.json through a JSON object.
    func editManifest(_ change: (inout [String: Any]) -> Void) throws {
        let url = URL(fileURLWithPath: manifest)
        guard var object = try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any] else {
            throw InspectFixtureError(message: "manifest.json is not an object")
        }
        change(&object)
        try JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys]).write(to: url)
    }

    /// Drops the triggers of a table that call the GeoPackage ST_* functions sqlite3 lacks (the
    /// R-tree triggers), as a writer without them would; returns the SQL that recreates them.
    func dropSpatialTriggers(_ table: String) throws -> String {
        let create = try sqlite(data, "SELECT sql || ';' FROM sqlite_master WHERE type = 'trigger' AND tbl_name = '\(table)' AND sql LIKE '%ST\\_%' ESCAPE '\\'")
        let drop = try sqlite(data, "SELECT 'DROP TRIGGER \"' || name || '\";' FROM sqlite_master WHERE type = 'trigger' AND tbl_name = '\(table)' AND sql LIKE '%ST\\_%' ESCAPE '\\'")
        try sqlite(data, drop)
        return create
    }
}

struct InspectFixtureError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}

/// GeoPackage geometry blobs written byte by byte from the specifications (GeoPackage 1.3
/// §2.1.3 header, OGC WKB), independent of the project's encoder.
enum HandMadeBlob {
    /// A little-endian header without envelope for `srsID`, then a WKB MultiPolygon of one
    /// polygon with one ring.
    static func multiPolygon(_ ring: [(Double, Double)], srsID: Int32 = 4326) -> String {
        var bytes: [UInt8] = [0x47, 0x50, 0x00, 0x01]  // "GP", version 0, flags: little endian, no envelope
        bytes += withUnsafeBytes(of: srsID.littleEndian, Array.init)
        func uint32(_ v: UInt32) { bytes += withUnsafeBytes(of: v.littleEndian, Array.init) }
        bytes.append(1); uint32(6); uint32(1)  // MultiPolygon, 1 polygon
        bytes.append(1); uint32(3); uint32(1)  // Polygon, 1 ring
        uint32(UInt32(ring.count))
        for (x, y) in ring {
            bytes += withUnsafeBytes(of: x.bitPattern.littleEndian, Array.init)
            bytes += withUnsafeBytes(of: y.bitPattern.littleEndian, Array.init)
        }
        return "X'" + bytes.map { String(format: "%02X", $0) }.joined() + "'"
    }
}
