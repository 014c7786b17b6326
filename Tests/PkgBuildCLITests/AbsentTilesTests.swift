import Foundation
import Geometry
import PkgBuildCLI
import Testing
import TestSupport
import TilePackage

/// Tiles the source does not have (HTTP 404 for a whole zoom, zooms beyond the source's
/// deepest) are reported per zoom by `tiles` and `create`, the zooms really held are what the
/// MBTiles metadata and the manifest say, and `inspect` warns about the rest.
@Suite("absent tiles are reported")
struct AbsentTilesTests {
    /// Alaska's box; the test server serves ne_raster_z0-5.mbtiles (nothing past zoom 5).
    static let area = "-170,50,-130,72"

    func sqlite(_ path: String, _ sql: String) throws -> String {
        let r = try runProcess("sqlite3", [path, sql])
        #expect(r.status == 0, "\(r.stderr)")
        return r.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    func planned(zoom: Int) throws -> Int {
        let r = CLI.run(["tiles", "--area", Self.area, "--zoom", "\(zoom)", "--from", TestData.url("ne_raster_z0-5.mbtiles").path,
                         "--dry-run", "--json"])
        let doc = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        return try #require(doc["total_tiles"] as? Int)
    }

    @Test func tilesNamesTheZoomsWithAbsentTiles() throws {
        let server = try TestTileServer(script: TileServerScript(rules: [.init(match: "^/5/", responses: ["404"])]))
        let dir = try TemporaryDirectory()
        let out = dir.path("alaska.mbtiles")
        let r = CLI.run(["tiles", "--area", Self.area, "--zoom", "0-6", "--from", server.baseURL + "/{z}/{x}/{y}.png",
                         "-o", out, "--json"])
        try server.stop()
        #expect(r.exitCode == 0, "\(r.stderr)")
        let (z5, z6) = (try planned(zoom: 5), try planned(zoom: 6))
        #expect(r.stderr.contains("\(z5 + z6) tiles of the area absent from the source (zoom 5: all \(z5); zoom 6: all \(z6)); "
            + "the basemap holds zoom 0-4"), "\(r.stderr)")
        let doc = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        let perZoom = try #require(doc["absent_per_zoom"] as? [[String: Int]])
        #expect(perZoom == [["zoom": 5, "tiles": z5], ["zoom": 6, "tiles": z6]])
        #expect(try sqlite(out, "SELECT value FROM metadata WHERE name = 'maxzoom'") == "4")
    }

    @Test func createRecordsTheZoomsHeldAndInspectWarns() throws {
        let server = try TestTileServer(script: TileServerScript(rules: [.init(match: "^/5/", responses: ["404"])]))
        let dir = try TemporaryDirectory()
        let source = try dir.copy(testdata: "demo/alaska_source.gpkg")
        let package = dir.path("alaska.pkg")
        let r = CLI.run(["create", "--area", Self.area, "--features", source, "--tiles", server.baseURL + "/{z}/{x}/{y}.png",
                         "--zoom", "0-6", "-o", package])
        try server.stop()
        #expect(r.exitCode == 0, "\(r.stderr)")
        let (z5, z6) = (try planned(zoom: 5), try planned(zoom: 6))
        #expect(r.stderr.contains("zoom 5: all \(z5); zoom 6: all \(z6)"), "\(r.stderr)")
        #expect(try sqlite(package + "/basemap.mbtiles", "SELECT value FROM metadata WHERE name = 'maxzoom'") == "4")
        let manifest = try #require(try JSONSerialization.jsonObject(
            with: Data(contentsOf: URL(fileURLWithPath: package + "/manifest.json"))) as? [String: Any])
        let tiles = try #require(manifest["tiles"] as? [String: Any])
        #expect(tiles["max_zoom"] as? Int == 4)
        #expect(tiles["requested_max_zoom"] as? Int == 6)

        let inspect = CLI.run(["inspect", package, "--json"])
        let doc = try #require(try JSONSerialization.jsonObject(with: Data(inspect.stdout.utf8)) as? [String: Any])
        let warnings = (doc["warnings"] as? [[String: Any]] ?? []).filter { $0["code"] as? String == "tiles-absent" }
        #expect(warnings.count == 1, "\(inspect.stdout)")
        let message = try #require(warnings.first?["message"] as? String)
        #expect(message.contains("lacks \(z5 + z6) tiles the area takes at zoom 0-6 (zoom 5: all \(z5); zoom 6: all \(z6))"),
                "\(message)")
        #expect(!CLI.run(["inspect", package]).stdout.contains("No warnings"))
    }

    /// A zoom whose tiles are all absent between two held ones: `inspect` shows the gap (not
    /// "zooms 0-3"), in text and JSON, and so does `create`'s warning.
    @Test func inspectShowsTheZoomsHeldWithTheirGaps() throws {
        let server = try TestTileServer(script: TileServerScript(rules: [.init(match: "^/2/", responses: ["404"])]))
        let dir = try TemporaryDirectory()
        let source = try dir.copy(testdata: "demo/alaska_source.gpkg")
        let package = dir.path("alaska.pkg")
        let r = CLI.run(["create", "--area", Self.area, "--features", source, "--tiles", server.baseURL + "/{z}/{x}/{y}.png",
                         "--zoom", "0-3", "-o", package])
        try server.stop()
        #expect(r.exitCode == 0, "\(r.stderr)")
        #expect(r.stderr.contains("the basemap holds zoom 0-1, 3"), "\(r.stderr)")
        let text = CLI.run(["inspect", package]).stdout
        #expect(text.contains("; zooms 0-1, 3 (0-3 asked); "), "\(text)")
        let doc = try #require(try JSONSerialization.jsonObject(with: Data(CLI.run(["inspect", package, "--json"]).stdout.utf8))
            as? [String: Any])
        let tiles = try #require(doc["tiles"] as? [String: Any])
        #expect(tiles["held_zooms"] as? [Int] == [0, 1, 3], "\(tiles)")
        #expect(tiles["held_zoom_ranges"] as? String == "0-1, 3", "\(tiles)")
    }

    /// A complete basemap has no such warning.
    @Test func aCompleteBasemapHasNoAbsentTiles() throws {
        let dir = try TemporaryDirectory()
        let source = try dir.copy(testdata: "demo/alaska_source.gpkg")
        let package = dir.path("alaska.pkg")
        let r = CLI.run(["create", "--area", Self.area, "--features", source, "--tiles", TestData.url("ne_raster_z0-5.mbtiles").path,
                         "--zoom", "0-5", "-o", package])
        #expect(r.exitCode == 0, "\(r.stderr)")
        #expect(!r.stderr.contains("absent"), "\(r.stderr)")
        #expect(CLI.run(["inspect", package]).stdout.contains("No warnings"))
    }
}
