import Foundation
import Geometry
import PkgBuildCLI
import Testing
import TestSupport
import TilePackage

@Suite("pkgbuild tiles")
struct TilesCommandTests {
    let raster = TestData.url("ne_raster_z0-5.mbtiles").path

    func sqlite(_ path: String, _ sql: String) throws -> String {
        let r = try runProcess("sqlite3", [path, sql])
        #expect(r.status == 0, "\(r.stderr)")
        return r.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test func dryRunPrintsTilesPerZoomAndTheSourcesRealBytes() throws {
        let result = CLI.run(["tiles", "--area", "-170,50,-130,72", "--zoom", "0-5", "--from", raster, "--dry-run", "--json"])
        #expect(result.exitCode == 0, "\(result.stderr)")
        let doc = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let coverage = TileCoverage(lonLatBoxes: [Envelope(minX: -170, minY: 50, maxX: -130, maxY: 72)], zooms: 0...5)
        #expect(doc["total_tiles"] as? Int == coverage.totalCount)
        let zooms = try #require(doc["zooms"] as? [[String: Int]])
        #expect(zooms.map { $0["tiles"] ?? -1 } == coverage.counts.map(\.count))
        // The estimate is the sum of the stored sizes, as sqlite3 adds them up.
        var expected = 0
        for z in 0...5 {
            for r in coverage.ranges(zoom: z) {
                expected += Int(try sqlite(raster, "SELECT coalesce(sum(length(tile_data)), 0) FROM tiles WHERE zoom_level = \(z) AND tile_column BETWEEN \(r.minX) AND \(r.maxX) AND tile_row BETWEEN \(r.minTMSY) AND \(r.maxTMSY)")) ?? -1
            }
        }
        #expect(doc["estimated_bytes"] as? Int == expected)
    }

    @Test func textDryRunForAnAntimeridianBox() {
        let result = CLI.run(["tiles", "--area", "170,-20,-170,-10", "--zoom", "0-3", "--from", raster, "--dry-run"])
        #expect(result.exitCode == 0, "\(result.stderr)")
        // mercantile.tiles(170, -20, -170, -10, [0..3]) without duplicates: 1, 2, 2, 2.
        #expect(result.stdout.contains("total: 7 tiles"), "\(result.stdout)")
    }

    @Test func moreThanMaxTilesIsRefusedBeforeAnyWork() throws {
        let dir = try TemporaryDirectory()
        let out = dir.path("world.mbtiles")
        let result = CLI.run(["tiles", "--area", "-180,-85,180,85", "--zoom", "0-5", "--from", raster, "-o", out, "--max-tiles", "100"])
        #expect(result.exitCode == 1)
        // 1 + 4 + 16 + 64 + 256 + 1024 = 1365 tiles; 0-3 is 85.
        #expect(result.stderr.contains("1365 tiles"), "\(result.stderr)")
        #expect(result.stderr.contains("zoom 0-3 fits"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out))
        #expect(!FileManager.default.fileExists(atPath: out + ".partial"))
    }

    /// The source's rows outside their zoom's range (31,122 in this file, counted by sqlite3
    /// in MBTilesTests) are looked for beside the copy and reported once it is done, and by
    /// every command that reads the source: a dry run, `estimate` and `create` too.
    @Test(arguments: ["tiles", "tiles --dry-run", "estimate", "create"])
    func rowsOutsideTheirZoomAreReported(command: String) throws {
        let dir = try TemporaryDirectory()
        let out = dir.path(command.hasPrefix("tiles") ? "world.mbtiles" : "world.pkg")
        let bad = TestData.url("bad_out_of_range_rows.mbtiles").path
        let features = ["--features", TestData.url("naturalearth.gpkg").path, "--tiles", bad]
        let argv: [String] = switch command {
        case "tiles": ["tiles", "--from", bad, "-o", out]
        case "tiles --dry-run": ["tiles", "--from", bad, "--dry-run"]
        case "estimate": ["estimate"] + features
        default: ["create", "--no-register", "-o", out] + features
        }
        let result = CLI.run(argv + ["--area", "-180,-85,180,85", "--zoom", "0-6"])
        #expect(result.exitCode == 0, "\(result.stderr)")
        let warning = "\(bad): 31122 tile rows lie outside their zoom's range and are ignored"
        #expect(result.stderr.components(separatedBy: warning).count == 2, "once: \(result.stderr)")
        #expect(FileManager.default.fileExists(atPath: out) == ["tiles", "create"].contains(command))
    }

    @Test func copyWritesAnMBTilesGDALOpens() throws {
        let dir = try TemporaryDirectory()
        let out = dir.path("alaska.mbtiles")
        let result = CLI.run(["tiles", "--area", "-170,50,-130,72", "--zoom", "0-5", "--from", raster, "-o", out, "--json"])
        #expect(result.exitCode == 0, "\(result.stderr)")
        let doc = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(doc["written"] as? Int == Int(try sqlite(out, "SELECT count(*) FROM tiles")))
        #expect(try sqlite(out, "SELECT value FROM metadata WHERE name = 'bounds'") == "-170,50,-130,72")
        let gdal = try runProcess("gdalinfo", [out])
        #expect(gdal.status == 0, "\(gdal.stderr)")
    }

    @Test func polygonAcrossTheAntimeridianIsCopiedOnBothSidesAndBoundedAcrossIt() throws {
        let dir = try TemporaryDirectory()
        let out = dir.path("bering.mbtiles")
        // The polygon of testdata/fixtures/tiles/antimeridian_coverage.json, edge jumping across.
        let result = CLI.run(["tiles", "--area", "POLYGON ((165 55, -165 52, -160 66, -175 70, 172 64, 165 55))",
                              "--zoom", "0-5", "--from", raster, "-o", out])
        #expect(result.exitCode == 0, "\(result.stderr)")
        // GDAL's tile counts for zooms 0-5 are 1, 2, 4, 4, 6, 14.
        #expect(try sqlite(out, "SELECT group_concat(n) FROM (SELECT count(*) AS n FROM tiles GROUP BY zoom_level ORDER BY zoom_level)") == "1,2,4,4,6,14")
        #expect(try sqlite(out, "SELECT min(tile_column) || ' ' || max(tile_column) FROM tiles WHERE zoom_level = 5") == "0 31")
        #expect(try sqlite(out, "SELECT value FROM metadata WHERE name = 'bounds'") == "165,52,-160,70")
        #expect(try sqlite(out, "SELECT value FROM metadata WHERE name = 'center'") == "-177.5,61,2")
    }

    @Test func polygonAreaFromAGeoJSONFileTakesFewerTilesThanItsBox() throws {
        let dir = try TemporaryDirectory()
        let file = dir.path("denali.geojson")
        let export = try runProcess("ogr2ogr", ["-f", "GeoJSON", file, TestData.url("ne_parks.gpkg").path, "-where", "unit_name = 'Denali NP & PRES'"])
        #expect(export.status == 0, "\(export.stderr)")
        let polygon = CLI.run(["tiles", "--area", "@" + file, "--zoom", "10", "--from", raster, "--dry-run", "--json"])
        #expect(polygon.exitCode == 0, "\(polygon.stderr)")
        let doc = try #require(try JSONSerialization.jsonObject(with: Data(polygon.stdout.utf8)) as? [String: Any])
        // GDAL's answer for Denali at zoom 10 (testdata/fixtures/tiles/park_coverage.json).
        #expect(doc["total_tiles"] as? Int == 101)
    }

    @Test(arguments: [
        ["tiles", "--area", "1,2,3", "--from", "x.mbtiles", "-o", "o.mbtiles"],
        ["tiles", "--area", "0,0,1,1", "--zoom", "5-2", "--from", "x.mbtiles", "-o", "o.mbtiles"],
        ["tiles", "--area", "0,0,1,1", "--from", "x.mbtiles"],
        ["tiles", "--area", "0,0,1,1", "--from", "x.mbtiles", "-o", "o.mbtiles", "--header", "novalue"],
        ["tiles", "--area", "POINT (1 2)", "--from", "x.mbtiles", "-o", "o.mbtiles"],
        ["tiles", "--area", "0,10,1,5", "--from", "x.mbtiles", "-o", "o.mbtiles"],
    ])
    func badCommandLinesAreUsageErrors(_ argv: [String]) {
        let result = CLI.run(argv)
        #expect(result.exitCode == 64, "\(argv): \(result.stderr)")
        #expect(result.stderr.hasPrefix("Error: "))
    }

    @Test func missingSourceIsAClearFailure() throws {
        let dir = try TemporaryDirectory()
        let result = CLI.run(["tiles", "--area", "0,0,1,1", "--zoom", "0-2", "--from", dir.path("missing.mbtiles"), "-o", dir.path("o.mbtiles")])
        #expect(result.exitCode == 1)
        #expect(result.stderr.contains("missing.mbtiles"))
    }
}
