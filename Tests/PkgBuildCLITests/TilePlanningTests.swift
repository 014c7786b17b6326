import Foundation
import PkgBuildCLI
import Testing
import TestSupport

/// `tiles`, `estimate` and `create` plan the same tiles for the same area, and mercantile
/// (the tile scheme's reference implementation) agrees with all three, for boxes wider than
/// half the world, the whole world, and boxes across the antimeridian.
@Suite("tile planning of tiles, estimate and create against mercantile")
struct TilePlanningTests {
    static let raster = TestData.url("ne_raster_z0-5.mbtiles").path
    static let features = TestData.url("naturalearth.gpkg").path

    static let areas = ["-179,-80,179,80", "-180,-85.0511,180,85.0511", "-100,-60,150,60", "170,-25,-170,70",
                        "-170,-30,175,10"]

    /// mercantile's tiles per zoom for a box (w > e: across the antimeridian), duplicates removed.
    static func mercantileCounts(_ bbox: String, zooms: ClosedRange<Int>) throws -> [Int] {
        let script = """
            import json, sys, mercantile
            w, s, e, n = map(float, sys.argv[1].split(","))
            print(json.dumps([len(set(mercantile.tiles(w, s, e, n, [z]))) for z in range(\(zooms.lowerBound), \(zooms.upperBound + 1))]))
            """
        let r = try runProcess(TestData.venvPython, ["-c", script, bbox])
        try #require(r.status == 0, "\(r.stderr)")
        return try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [Int])
    }

    static func object(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], "\(text)")
    }

    @Test(arguments: areas)
    func tilesDryRunAgrees(area: String) throws {
        let expected = try Self.mercantileCounts(area, zooms: 0...5)
        let r = CLI.run(["tiles", "--area=\(area)", "--zoom", "0-5", "--from", Self.raster, "--dry-run", "--json"])
        #expect(r.exitCode == 0, "\(r.stderr)")
        let zooms = try #require(try Self.object(r.stdout)["zooms"] as? [[String: Int]])
        #expect(zooms.map { $0["tiles"] ?? -1 } == expected)
    }

    @Test(arguments: areas)
    func estimateAgrees(area: String) throws {
        let expected = try Self.mercantileCounts(area, zooms: 0...5)
        let r = CLI.run(["estimate", "--area=\(area)", "--features", Self.features, "--layer", "countries",
                         "--tiles", Self.raster, "--zoom", "0-5", "--json"])
        #expect(r.exitCode == 0, "\(r.stderr)")
        let tiles = try #require(try Self.object(r.stdout)["tiles"] as? [String: Any])
        let perZoom = try #require(tiles["per_zoom"] as? [[String: Int]])
        #expect(perZoom.map { $0["tiles"] ?? -1 } == expected)
        #expect(tiles["total"] as? Int == expected.reduce(0, +))
    }

    /// The file source holds every tile of the world to zoom 5, so the basemap holds exactly
    /// the planned tiles, counted here by sqlite3.
    @Test(arguments: areas)
    func createAgrees(area: String) throws {
        let expected = try Self.mercantileCounts(area, zooms: 0...4)
        let dir = try TemporaryDirectory()
        let output = dir.path("wide.pkg")
        let r = CLI.run(["create", "--area=\(area)", "--features", Self.features, "--layer", "countries",
                         "--tiles", Self.raster, "--zoom", "0-4", "--no-register", "-o", output])
        #expect(r.exitCode == 0, "\(r.stderr)")
        let counts = try runProcess("sqlite3", [output + "/basemap.mbtiles",
                                                "SELECT count(*) FROM tiles GROUP BY zoom_level ORDER BY zoom_level"])
        #expect(counts.stdout.split(separator: "\n").map { Int($0) ?? -1 } == expected)
    }
}
