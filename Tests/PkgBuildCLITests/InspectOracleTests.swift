import Foundation
import Extract
import Inspect
import PkgBuildCLI
import Testing
import TestSupport

/// What `inspect` reports, against what sqlite3, GDAL and mercantile say about the same files,
/// and the pictures it draws.
@Suite("inspect against sqlite3, GDAL and mercantile")
struct InspectOracleTests {
    static let hasRSVG = FileManager.default.isExecutableFile(atPath: "/usr/bin/rsvg-convert")

    @Test func zoomsAgreeWithSqlite3GdalinfoAndMercantile() throws {
        let fixture = try InspectFixture()
        let zooms = try #require(try fixture.inspect()["zooms"] as? [[String: Any]])
        let reported = zooms.map { z in
            ["zoom", "tiles", "min_column", "max_column", "min_row", "max_row"].map { String(z[$0] as? Int ?? -1) }.joined(separator: "|")
        }
        // sqlite3 on the tiles view.
        let sqlite = try fixture.sqlite(fixture.basemap, """
            SELECT zoom_level, count(*), min(tile_column), max(tile_column), min(tile_row), max(tile_row)
            FROM tiles GROUP BY zoom_level ORDER BY zoom_level
            """)
        #expect(reported == sqlite.split(separator: "\n").map(String.init))
        let bytes = try fixture.sqlite(fixture.basemap, "SELECT group_concat(b) FROM (SELECT sum(length(tile_data)) AS b FROM tiles GROUP BY zoom_level ORDER BY zoom_level)")
        #expect(zooms.map { String($0["bytes"] as? Int ?? -1) }.joined(separator: ",") == bytes)

        // mercantile: the tiles of the area's box per zoom (TMS row = 2^z - 1 - y).
        let script = """
            import mercantile
            for z in range(6):
                t = list(mercantile.tiles(-153.5, 60.8, -147.5, 64.3, zooms=[z]))
                xs = [a.x for a in t]; rows = [(1 << z) - 1 - a.y for a in t]
                print(f"{z}|{len(t)}|{min(xs)}|{max(xs)}|{min(rows)}|{max(rows)}")
            """
        let mercantile = try runProcess(TestData.venvPython, ["-c", script])
        #expect(mercantile.status == 0, "\(mercantile.stderr)")
        #expect(reported == mercantile.stdout.split(separator: "\n").map(String.init))

        // gdalinfo: the deepest zoom, and the tiles its raster spans (from the geotransform).
        let gdal = try runProcess("gdalinfo", ["-json", fixture.basemap])
        #expect(gdal.status == 0, "\(gdal.stderr)")
        let info = try #require(try JSONSerialization.jsonObject(with: Data(gdal.stdout.utf8)) as? [String: Any])
        let transform = try #require(info["geoTransform"] as? [Double])
        let size = try #require(info["size"] as? [Int])
        let deepest = try #require(zooms.last)
        let zoomLevel = ((info["metadata"] as? [String: Any])?[""] as? [String: Any])?["ZOOM_LEVEL"] as? String
        #expect(zoomLevel == String(deepest["zoom"] as? Int ?? -1))
        let shift = 20_037_508.342789244, tile = 2 * shift / Double(1 << (deepest["zoom"] as? Int ?? 0))
        let columns = (Int(((transform[0] + shift) / tile).rounded(.down)),
                       Int(((transform[0] + Double(size[0]) * transform[1] + shift) / tile - 1e-9).rounded(.down)))
        let rowsXYZ = (Int(((shift - transform[3]) / tile).rounded(.down)),
                       Int(((shift - transform[3] - Double(size[1]) * transform[5]) / tile - 1e-9).rounded(.down)))
        let n = 1 << (deepest["zoom"] as? Int ?? 0)
        #expect(columns.0 == deepest["min_column"] as? Int && columns.1 == deepest["max_column"] as? Int, "\(columns)")
        #expect(n - 1 - rowsXYZ.1 == deepest["min_row"] as? Int && n - 1 - rowsXYZ.0 == deepest["max_row"] as? Int, "\(rowsXYZ)")
    }

    @Test func layersAgreeWithOgrinfo() throws {
        let fixture = try InspectFixture()
        let report = try fixture.inspect()
        for name in ["parks", "airports"] {
            let layer = try #require(fixture.layer(name, in: report))
            let summary = try runProcess("ogrinfo", ["-ro", "-so", fixture.data, name])
            #expect(summary.status == 0, "\(summary.stderr)")
            let count = summary.stdout.split(separator: "\n").first { $0.hasPrefix("Feature Count: ") }.map { Int($0.dropFirst(15)) }
            #expect(count == layer["count"] as? Int, "\(name): \(summary.stdout)")
            let extentLine = try #require(summary.stdout.split(separator: "\n").first { $0.hasPrefix("Extent: ") })
            let gdalExtent = numbers(in: String(extentLine))
            let extent = try #require(layer["extent"] as? [Double])
            #expect(gdalExtent.count == 4 && zip(gdalExtent, extent).allSatisfy { abs($0 - $1) <= 1e-6 }, "\(gdalExtent) vs \(extent)")
            // GDAL computes the data's extent from the geometry blobs with its own ST_ functions.
            let sql = try runProcess("ogrinfo", ["-ro", "-q", fixture.data, "-sql",
                                                 "SELECT MIN(ST_MinX(geom)) AS a, MIN(ST_MinY(geom)) AS b, MAX(ST_MaxX(geom)) AS c, MAX(ST_MaxY(geom)) AS d FROM \(name)"])
            let values = sql.stdout.split(separator: "\n").filter { $0.contains("(Real) = ") }.compactMap { Double($0.split(separator: "=").last!.trimmingCharacters(in: .whitespaces)) }
            #expect(values.count == 4 && zip(values, extent).allSatisfy { abs($0 - $1) <= 1e-9 * max(1, abs($0)) }, "\(sql.stdout)")
        }
        let visitors = try #require(fixture.layer("park_visitors", in: report))
        #expect(visitors["count"] as? Int == Int(try fixture.sqlite(fixture.data, "SELECT count(*) FROM park_visitors")))
    }

    @Test func geoJSONIsAFeatureCollectionGDALReads() throws {
        let fixture = try InspectFixture()
        let r = CLI.run(["inspect", fixture.package, "--geojson"])
        #expect(r.exitCode == 0, "\(r.stderr)")
        let file = fixture.directory.path("inspect.geojson")
        try Data(r.stdout.utf8).write(to: URL(fileURLWithPath: file))
        let info = try runProcess("ogrinfo", ["-ro", "-al", "-so", file])
        #expect(info.status == 0, "\(info.stderr)")
        #expect(info.stdout.contains("using driver `GeoJSON' successful"), "\(info.stdout)")
        // The area, two layer extents (parks, airports) and one coverage per zoom 0-5.
        #expect(info.stdout.contains("Feature Count: 9"), "\(info.stdout)")
        #expect(info.stdout.contains("kind: String") && info.stdout.contains("zoom: Integer"), "\(info.stdout)")
        let coverage = try runProcess("ogrinfo", ["-ro", "-q", file, "-where", "zoom = 5", "-al"])
        #expect(coverage.stdout.contains("tiles (Integer) = 2") && coverage.stdout.contains("MULTIPOLYGON"), "\(coverage.stdout)")
    }

    @Test func svgFitsTheAreaTheFeaturesAndTheTiles() throws {
        let fixture = try InspectFixture()
        for zoom in [nil, 0, 3, 5] as [Int?] {
            let svg = fixture.directory.path("p\(zoom ?? -1).svg")
            let r = CLI.run(["inspect", fixture.package, "--svg", svg] + (zoom.map { ["--svg-zoom", String($0)] } ?? []))
            #expect(r.exitCode == 0, "\(r.stderr)")
            let text = try String(contentsOfFile: svg, encoding: .utf8)
            let map = try #require(mapSize(text))
            // Every coordinate drawn on the map (paths, tiles, images, points) lies on it.
            var drawn: [(Double, Double)] = []
            for d in attributes("d", in: text) {
                let v = numbers(in: d)
                drawn += stride(from: 0, to: v.count - 1, by: 2).map { (v[$0], v[$0 + 1]) }
            }
            for element in elements(["rect", "image"], in: text) where !element.contains("100%") && !element.contains("translate") {
                let x = attributes("x", in: element).compactMap(Double.init).first ?? 0
                let y = attributes("y", in: element).compactMap(Double.init).first ?? 0
                let w = attributes("width", in: element).compactMap(Double.init).first ?? 0
                let h = attributes("height", in: element).compactMap(Double.init).first ?? 0
                drawn += [(x, y), (x + w, y + h)]
            }
            for element in elements(["circle"], in: text) {
                drawn.append((attributes("cx", in: element).compactMap(Double.init).first ?? -1,
                              attributes("cy", in: element).compactMap(Double.init).first ?? -1))
            }
            #expect(drawn.count > 20)
            let outside = drawn.filter { $0.0 < -0.1 || $0.1 < -0.1 || $0.0 > map.width + 0.1 || $0.1 > map.height + 0.1 }
            #expect(outside.isEmpty, "zoom \(zoom ?? -1): \(outside.prefix(5)) outside \(map)")
            let expectedTiles = zoom == nil || zoom == 5 ? 2 : 1
            #expect(elements(["image"], in: text).count == expectedTiles, "zoom \(zoom ?? -1)")
            #expect(text.contains("tiles at zoom \(zoom ?? 5): \(expectedTiles) of 7"))
            #expect(elements(["circle"], in: text).count == 1)  // Anchorage
        }
    }

    /// A layer drawn only in part still has its whole extent in the frame.
    @Test func svgOfALargeLayerDrawsPartButFramesAll() throws {
        let fixture = try InspectFixture(tiles: false)  // framed on the features alone
        let inspection = try PackageInspector.inspect(fixture.package)
        let full = try PackageDrawing.svg(inspection)
        // Nothing drawn: Lake Clark, reaching west of the area, must still be in the frame.
        let part = try PackageDrawing.svg(inspection, maxFeatures: 0)
        #expect(part.contains("parks: 2 multipolygons (0 drawn)") && !full.contains("drawn)"))
        #expect(elements(["path"], in: part).count == elements(["path"], in: full).count - 2)
        #expect(mapSize(part).map { "\($0)" } == mapSize(full).map { "\($0)" })
    }

    @Test(.enabled(if: InspectOracleTests.hasRSVG)) func svgRendersWithLibrsvg() throws {
        let fixture = try InspectFixture()
        let svg = fixture.directory.path("p.svg"), png = fixture.directory.path("p.png")
        #expect(CLI.run(["inspect", fixture.package, "--svg", svg]).exitCode == 0)
        let render = try runProcess("/usr/bin/rsvg-convert", [svg, "-o", png])
        #expect(render.status == 0 && render.stderr.isEmpty, "\(render.stderr)")
        #expect(((try? FileManager.default.attributesOfItem(atPath: png))?[.size] as? Int ?? 0) > 10_000)
    }

    @Test func svgOfAZoomTheBasemapLacksIsRefused() throws {
        let fixture = try InspectFixture()
        let svg = fixture.directory.path("p.svg")
        let r = CLI.run(["inspect", fixture.package, "--svg", svg, "--svg-zoom", "9"])
        #expect(r.exitCode == 1)
        #expect(r.stderr.contains("no tiles at zoom 9 (its zooms: 0, 1, 2, 3, 4, 5)"), "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: svg))
        #expect(CLI.run(["inspect", fixture.package, "--svg-zoom", "3"]).exitCode == 64)
    }

    @Test func svgWithoutABasemapFramesTheFeatures() throws {
        let fixture = try InspectFixture(tiles: false)
        let svg = fixture.directory.path("p.svg")
        #expect(CLI.run(["inspect", fixture.package, "--svg", svg]).exitCode == 0)
        let text = try String(contentsOfFile: svg, encoding: .utf8)
        #expect(!text.contains("<image") && text.contains("id=\"layer-parks\""))
    }

    @Test func textReportNamesEverything() throws {
        let fixture = try InspectFixture()
        let r = CLI.run(["inspect", fixture.package])
        #expect(r.exitCode == 0, "\(r.stderr)")
        for expected in ["Replica", "in-sync, extracted at generation 0", "at the source: active", "Source    geopackage",
                         "Area      POLYGON ((-153.5 60.8", "CRS       EPSG:4326", "Tiles     png from", "; zooms 0-5; 7 tiles now",
                         "Files     manifest.json", "data.gpkg", "basemap.mbtiles", "park_visitors", "related rows", "ROWS (TMS)"] {
            #expect(r.stdout.contains(expected), "\(expected) in \(r.stdout)")
        }
    }

    // MARK: - Reading SVG and tool output

    func numbers(in text: String) -> [Double] {
        var result: [Double] = []
        var current = ""
        for ch in text {
            if ch.isNumber || ch == "." || (ch == "-" && current.isEmpty) || ch == "e" && !current.isEmpty {
                current.append(ch)
            } else {
                if let v = Double(current) { result.append(v) }
                current = ch == "-" ? "-" : ""
            }
        }
        if let v = Double(current) { result.append(v) }
        return result
    }

    func attributes(_ name: String, in text: String) -> [String] {
        text.components(separatedBy: " \(name)=\"").dropFirst().compactMap { $0.split(separator: "\"", maxSplits: 1).first.map(String.init) }
    }

    func elements(_ names: [String], in text: String) -> [String] {
        names.flatMap { name in
            text.components(separatedBy: "<\(name) ").dropFirst().compactMap { $0.split(separator: ">", maxSplits: 1).first.map { " " + $0 } }
        }
    }

    /// The map's rectangle: the second `rect` of the document, under which the legend sits.
    func mapSize(_ text: String) -> (width: Double, height: Double)? {
        let rects = elements(["rect"], in: text)
        guard rects.count > 1, let w = attributes("width", in: rects[1]).first.flatMap(Double.init),
              let h = attributes("height", in: rects[1]).first.flatMap(Double.init) else { return nil }
        return (w, h)
    }
}
