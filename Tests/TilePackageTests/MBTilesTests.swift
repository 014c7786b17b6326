import Foundation
import Geometry
import Testing
import TestSupport
@testable import TilePackage

/// Runs sqlite3 (the independent reader) and returns its output lines.
func sqlite3Lines(_ path: String, _ sql: String) throws -> [String] {
    let r = try runProcess("sqlite3", [path, sql])
    #expect(r.status == 0, "sqlite3 failed: \(r.stderr)")
    return r.stdout.split(separator: "\n").map(String.init)
}

@Suite("MBTiles reader")
struct MBTilesReaderTests {
    @Test func plainTableMetadataAndTiles() throws {
        let path = TestData.url("ne_raster_z0-5.mbtiles").path
        let reader = try MBTilesReader(path: path)
        let m = try reader.metadata()
        #expect(m.format == "png")
        #expect(m.minZoom == 0 && m.maxZoom == 5)
        #expect(m.bounds?.minX == -180)
        let summaries = try reader.zoomSummaries()
        let expected = try sqlite3Lines(path, "SELECT zoom_level || ' ' || count(*) FROM tiles GROUP BY zoom_level")
        #expect(summaries.map { "\($0.zoom) \($0.count)" } == expected)
        // Tile 2/1/1 (XYZ) is stored at TMS row 2.
        let hex = try sqlite3Lines(path, "SELECT hex(tile_data) FROM tiles WHERE zoom_level = 2 AND tile_column = 1 AND tile_row = 2")
        let data = try #require(try reader.tile(TileID(z: 2, x: 1, y: 1)))
        #expect(data.map { String(format: "%02X", $0) }.joined() == hex.first)
        #expect(try reader.tile(TileID(z: 9, x: 0, y: 0)) == nil)
        #expect(try reader.outOfRangeRows() == nil)
    }

    @Test func outOfRangeRowsAreReportedAndNeverUsed() throws {
        let path = TestData.url("bad_out_of_range_rows.mbtiles").path
        let source = try MBTilesSource(path: path)
        let bad = try #require(try source.reader.outOfRangeRows())
        let expected = try sqlite3Lines(path, "SELECT count(*) FROM tiles WHERE tile_column < 0 OR tile_row < 0 OR tile_column >= (1 << zoom_level) OR tile_row >= (1 << zoom_level)")
        #expect(String(bad.count) == expected.first)
        #expect(bad.count == 31_122)
        let e = bad.example
        #expect(e.column >= 1 << e.zoom || e.row >= 1 << e.zoom || e.column < 0 || e.row < 0)
        #expect(source.warnings.count == 1)
        #expect(source.warnings[0].contains("31122"))
        let valid = try source.reader.zoomSummaries().reduce(0) { $0 + $1.count }
        #expect(valid == 34_096 - 31_122)
    }

    @Test func deduplicatedSchemaIsRead() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("dedup.mbtiles")
        let r = try runProcess("sqlite3", [path, """
            CREATE TABLE map (zoom_level INTEGER, tile_column INTEGER, tile_row INTEGER, tile_id TEXT);
            CREATE TABLE images (tile_data BLOB, tile_id TEXT);
            CREATE TABLE metadata (name TEXT, value TEXT);
            INSERT INTO images VALUES (X'0102', 'a'), (X'0304', 'b');
            INSERT INTO map VALUES (1, 0, 0, 'a'), (1, 1, 0, 'a'), (1, 1, 1, 'b');
            """])
        #expect(r.status == 0)
        let reader = try MBTilesReader(path: path)
        #expect(try reader.tile(TileID(z: 1, x: 1, tmsY: 0)) == Data([1, 2]))
        #expect(try reader.tile(TileID(z: 1, x: 1, tmsY: 1)) == Data([3, 4]))
        #expect(try reader.sizes(in: TileRange(z: 1, minX: 0, maxX: 1, minY: 0, maxY: 1)).count == 3)
    }

    @Test func notMBTilesIsAClearError() throws {
        #expect(throws: TilePackageError.self) { try MBTilesReader(path: TestData.url("ne_parks.gpkg").path) }
        #expect(throws: TilePackageError.self) { try MBTilesReader(path: "/nonexistent/x.mbtiles") }
    }
}

@Suite("MBTiles copy")
struct MBTilesCopyTests {
    static let alaska = Envelope(minX: -170, minY: 50, maxX: -130, maxY: 72)

    func request(_ output: String, box: Envelope = alaska, zooms: ClosedRange<Int> = 0...5) -> TileCopyRequest {
        TileCopyRequest(output: output, coverage: TileCoverage(lonLatBoxes: [box], zooms: zooms),
                        areaBounds: box, jobKey: "test \(box) \(zooms)")
    }

    @Test func rasterCopyOpensInGDALAndMbutilWithTheSourceBytes() throws {
        let dir = try TemporaryDirectory()
        let src = TestData.url("ne_raster_z0-5.mbtiles").path
        let out = dir.path("alaska.mbtiles")
        let report = try TileCopy.run(request(out), from: MBTilesSource(path: src))
        #expect(!FileManager.default.fileExists(atPath: out + ".partial"))
        // The same tiles as a plain range query on the source gives (ranges from mercantile's
        // formulas: see the coverage tests).
        let coverage = TileCoverage(lonLatBoxes: [Self.alaska], zooms: 0...5)
        var expected: [String] = []
        for z in 0...5 {
            for r in coverage.ranges(zoom: z) {
                expected += try sqlite3Lines(src, "SELECT zoom_level || '/' || tile_column || '/' || tile_row || ' ' || hex(tile_data) FROM tiles WHERE zoom_level = \(z) AND tile_column BETWEEN \(r.minX) AND \(r.maxX) AND tile_row BETWEEN \(r.minTMSY) AND \(r.maxTMSY)")
            }
        }
        let got = try sqlite3Lines(out, "SELECT zoom_level || '/' || tile_column || '/' || tile_row || ' ' || hex(tile_data) FROM tiles")
        #expect(Set(got) == Set(expected))
        #expect(got.count == expected.count)
        #expect(report.written == expected.count)
        // Deduplicated: fewer images than tiles (ocean tiles repeat).
        let images = try sqlite3Lines(out, "SELECT count(*) FROM images")
        #expect(Int(images[0])! < expected.count)

        let meta = Dictionary(uniqueKeysWithValues: try sqlite3Lines(out, "SELECT name || '=' || value FROM metadata").map {
            let p = $0.split(separator: "=", maxSplits: 1); return (String(p[0]), p.count > 1 ? String(p[1]) : "")
        })
        #expect(meta["format"] == "png")
        #expect(meta["minzoom"] == "0" && meta["maxzoom"] == "5")
        #expect(meta["bounds"] == "-170,50,-130,72")
        #expect(meta["name"] == "ne_raster")
        #expect(meta["type"] == "overlay")
        #expect(meta["center"] != nil)
        #expect(meta[TileCopy.jobKeyName] == nil)

        let gdal = try runProcess("gdalinfo", [out])
        #expect(gdal.status == 0, "\(gdal.stderr)")
        #expect(gdal.stdout.contains("Driver: MBTiles/MBTiles"))

        let exported = dir.path("exported")
        let mb = try runProcess(TestData.root.appendingPathComponent(".venv/bin/mb-util").path, ["--image_format=png", out, exported])
        #expect(mb.status == 0, "\(mb.stderr)")
        let files = FileManager.default.enumerator(atPath: exported)?.compactMap { $0 as? String }.filter { $0.hasSuffix(".png") } ?? []
        #expect(files.count == expected.count)
    }

    @Test func vectorCopyKeepsJSONAndOpensInOGR() throws {
        let dir = try TemporaryDirectory()
        let out = dir.path("vector.mbtiles")
        _ = try TileCopy.run(request(out, zooms: 0...4), from: MBTilesSource(path: TestData.url("ne_vector_z0-6.mbtiles").path))
        let json = "SELECT hex(value) FROM metadata WHERE name = 'json'"
        #expect(try sqlite3Lines(out, json) == sqlite3Lines(TestData.url("ne_vector_z0-6.mbtiles").path, json))
        #expect(try sqlite3Lines(out, json).count == 1)
        let format = try sqlite3Lines(out, "SELECT value FROM metadata WHERE name = 'format'")
        #expect(format == ["pbf"])
        let ogr = try runProcess("ogrinfo", ["-ro", "-so", "-al", out])
        #expect(ogr.status == 0, "\(ogr.stderr)")
        #expect(ogr.stdout.contains("countries"))
    }

    @Test func interruptedCopyResumesToTheSameResult() throws {
        let dir = try TemporaryDirectory()
        let src = TestData.url("ne_raster_z0-5.mbtiles").path
        let whole = dir.path("whole.mbtiles")
        _ = try TileCopy.run(request(whole), from: MBTilesSource(path: src))

        let out = dir.path("resumed.mbtiles")
        var commits = 0
        // A by-number source (not scanning): cancellation is polled after every tile.
        let bySource = ByNumber(try MBTilesSource(path: src))
        #expect(throws: CancellationError.self) {
            try TileCopy.run(request(out), from: bySource, isCancelled: { commits += 1; return commits == 6 })
        }
        #expect(!FileManager.default.fileExists(atPath: out))
        #expect(FileManager.default.fileExists(atPath: out + ".partial"))
        let kept = try #require(Int(try sqlite3Lines(out + ".partial", "SELECT count(*) FROM map").first ?? ""))
        #expect(kept > 0)
        let report = try TileCopy.run(request(out), from: bySource)
        #expect(report.resumed == kept)
        #expect(report.resumed + report.written + report.absent == report.requested)
        #expect(FileManager.default.fileExists(atPath: out))
        let query = "SELECT zoom_level || '/' || tile_column || '/' || tile_row || ' ' || hex(tile_data) FROM tiles ORDER BY 1"
        #expect(try sqlite3Lines(out, query) == sqlite3Lines(whole, query))
        let meta = "SELECT name || '=' || value FROM metadata ORDER BY name"
        #expect(try sqlite3Lines(out, meta) == sqlite3Lines(whole, meta))
    }

    /// Metadata numbers (bounds, center) as printf's %.7f, without trailing zeros.
    @Test(arguments: [(12.5, "12.5"), (3, "3"), (-170, "-170"), (100, "100"), (0.1234567, "0.1234567"),
                      (85.05112878, "85.0511288"), (1e-9, "0"), (-1e-9, "0"), (-0.25, "-0.25")])
    func metadataNumbersDropTrailingZeros(value: Double, text: String) {
        #expect(TileCopy.number(value) == text)
    }
}

/// Hides a source's scan, so the copy goes tile by tile as it does over HTTP.
final class ByNumber: TileSource {
    let inner: MBTilesSource
    init(_ inner: MBTilesSource) { self.inner = inner }
    var identity: String { inner.identity }
    func metadata() throws -> TileSourceMetadata { try inner.metadata() }
    func fetch(_ tiles: some Sequence<TileID>, _ report: (TileID, TileFetchResult) throws -> Void) throws { try inner.fetch(tiles, report) }
    func estimatedBytes(of coverage: TileCoverage, progress: TileProgress) throws -> Int? {
        try inner.estimatedBytes(of: coverage, progress: progress)
    }
}
