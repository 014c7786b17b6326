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

    /// mercantile's tiles per zoom for a box (w > e: across the antimeridian), duplicates
    /// removed; past zoom 10 (too many to list) from the corner tiles mercantile.tiles starts
    /// from, for a box that does not cross the antimeridian.
    static func mercantileCounts(_ bbox: String, zooms: ClosedRange<Int>) throws -> [Int] {
        let script = """
            import json, sys, mercantile
            w, s, e, n = map(float, sys.argv[1].split(","))
            def count(z):
                if z <= 10:
                    return len(set(mercantile.tiles(w, s, e, n, [z])))
                ul, lr = mercantile.tile(w, n, z), mercantile.tile(e - 1e-11, s + 1e-11, z)
                return (lr.x - ul.x + 1) * (lr.y - ul.y + 1)
            print(json.dumps([count(z) for z in range(\(zooms.lowerBound), \(zooms.upperBound + 1))]))
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
        // The area as the manifest keeps it says the same: inspect finds every tile inside it.
        let inspect = CLI.run(["inspect", output])
        #expect(inspect.exitCode == 0, "\(inspect.stderr)")
        #expect(inspect.stdout.contains("No warnings"), "\(inspect.stdout)")
    }
}

/// Over `--max-tiles`, `estimate` and `tiles --dry-run` print the counts and the zooms that
/// fit and succeed; `create` and `tiles` refuse with the same figures. Boxes are counted in
/// closed form, so the whole world at zoom 24 answers at once.
@Suite("tile counts over --max-tiles")
struct TileLimitTests {
    static let world = "-180,-85.0511287798066,180,85.0511287798066"
    static let allTiles = ((1 << 50) - 1) / 3  // every tile of zoom 0...24

    @Test(.timeLimit(.minutes(1)))
    func estimateOfTheWorldAtZoom24PrintsWhatFits() throws {
        let r = CLI.run(["estimate", "--area=\(Self.world)", "--features", TilePlanningTests.features, "--layer", "countries",
                         "--tiles", TilePlanningTests.raster, "--zoom", "0-24"])
        #expect(r.exitCode == 0, "\(r.stderr)")
        #expect(r.stdout.contains("total: \(Self.allTiles) tiles"), "\(r.stdout)")
        #expect(r.stdout.contains("  24  \(1 << 48)"), "\(r.stdout)")
        #expect(r.stderr.contains("more than --max-tiles 100000: a real run would be refused; zoom 0-8 fits (87381 tiles)"),
                "\(r.stderr)")
    }

    @Test(.timeLimit(.minutes(1)))
    func estimateAsJSONSaysWhatFits() throws {
        let r = CLI.run(["estimate", "--area=\(Self.world)", "--features", TilePlanningTests.features, "--layer", "countries",
                         "--tiles", TilePlanningTests.raster, "--zoom", "0-24", "--max-tiles", "1000", "--json"])
        #expect(r.exitCode == 0, "\(r.stderr)")
        let tiles = try #require(try TilePlanningTests.object(r.stdout)["tiles"] as? [String: Any])
        #expect(tiles["total"] as? Int == Self.allTiles)
        #expect(tiles["within_max_tiles"] as? Bool == false)
        let fit = try #require(tiles["fitting_zooms"] as? [String: Int])
        #expect(fit == ["min_zoom": 0, "max_zoom": 4, "tiles": 341])
    }

    @Test(.timeLimit(.minutes(1)))
    func createRefusesWithTheSameFigures() throws {
        let dir = try TemporaryDirectory()
        let output = dir.path("world.pkg")
        let r = CLI.run(["create", "--area=\(Self.world)", "--features", TilePlanningTests.features, "--layer", "countries",
                         "--tiles", TilePlanningTests.raster, "--zoom", "0-24", "--no-register", "-o", output])
        #expect(r.exitCode == 1)
        #expect(r.stderr.contains("the area needs \(Self.allTiles) tiles at zoom 0-24, more than --max-tiles 100000; "
            + "zoom 0-8 fits (87381 tiles)"), "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: output))
    }

    /// A polygon is walked only to the zoom that passes the limit; the deeper zooms are
    /// estimated and marked so, and the fitting zooms are exact.
    @Test(.timeLimit(.minutes(1)))
    func aPolygonOverTheLimitIsEstimatedPastIt() throws {
        let r = CLI.run(["tiles", "--area", "POLYGON((-120 30,-70 30,-70 48,-120 48,-120 30))", "--zoom", "0-20",
                         "--from", TilePlanningTests.raster, "--dry-run", "--max-tiles", "5000", "--json"])
        #expect(r.exitCode == 0, "\(r.stderr)")
        let doc = try TilePlanningTests.object(r.stdout)
        #expect(doc["exact"] as? Bool == false)
        let zooms = try #require(doc["zooms"] as? [[String: Any]])
        let exact = zooms.filter { $0["exact"] as? Bool == true }.compactMap { $0["tiles"] as? Int }
        // The same area as a box, counted exactly by mercantile.
        let expected = try TilePlanningTests.mercantileCounts("-120,30,-70,48", zooms: 0...20)
        #expect(exact == Array(expected.prefix(exact.count)))
        #expect(exact.count < 12)
        let fit = try #require(doc["fitting_zooms"] as? [String: Int])
        let deepest = try #require((0..<expected.count).last { expected[0...$0].reduce(0, +) <= 5000 })
        #expect(fit["max_zoom"] == deepest)
        let z20 = try #require(zooms.last?["tiles"] as? Int)
        #expect(abs(Double(z20 - expected[20])) / Double(expected[20]) < 0.01, "\(z20) estimated, \(expected[20]) in mercantile")
    }
}
