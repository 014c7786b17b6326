import Foundation
import Geometry
import Testing
import TestSupport
@testable import TilePackage

/// The copy from an MBTiles file runs inside SQLite (`MBTilesDirectCopy`); every other source
/// goes tile by tile. Both must write the same tileset; files are read back with sqlite3.
@Suite("MBTiles copy inside SQLite")
struct DirectCopyTests {
    static let raster = TestData.url("ne_raster_z0-5.mbtiles").path
    static let alaskaBox = Envelope(minX: -170, minY: 50, maxX: -130, maxY: 72)
    /// A triangle over Alaska and the Bering Sea: the quadtree walk gives whole blocks and
    /// boundary runs of one row.
    static let triangle = "POLYGON ((-178 51, -128 58, -160 71.5, -178 51))"

    static let tilesQuery = "SELECT zoom_level || '/' || tile_column || '/' || tile_row || ' ' || hex(tile_data) FROM tiles ORDER BY 1"
    static let metadataQuery = "SELECT name || '=' || value FROM metadata ORDER BY name"

    func request(_ output: String, _ coverage: TileCoverage, bounds: Envelope, key: String) -> TileCopyRequest {
        TileCopyRequest(output: output, coverage: coverage, areaBounds: bounds, jobKey: key)
    }

    static func polygonCoverage(zooms: ClosedRange<Int>) throws -> (TileCoverage, Envelope) {
        let context = try GEOSContext()
        let area = try context.geometry(fromWKT: triangle)
        let coverage = try TileCoverage(lonLatArea: area, zooms: zooms, context: context)
        return (coverage, try #require(area.envelope))
    }

    /// The same tiles, bytes and metadata, and storage deduplicated exactly: one image per
    /// distinct tile, none left unused.
    func expectSameTileset(_ ours: String, _ reference: String) throws {
        let tiles = try sqlite3Lines(ours, Self.tilesQuery)
        #expect(!tiles.isEmpty)
        #expect(tiles == (try sqlite3Lines(reference, Self.tilesQuery)))
        #expect(try sqlite3Lines(ours, Self.metadataQuery) == sqlite3Lines(reference, Self.metadataQuery))
        let distinct = try sqlite3Lines(ours, "SELECT count(DISTINCT tile_data) FROM tiles")
        #expect(try sqlite3Lines(ours, "SELECT count(*) FROM images") == distinct)
        #expect(try sqlite3Lines(ours, "SELECT count(*) FROM images WHERE tile_id NOT IN (SELECT tile_id FROM map)") == ["0"])
    }

    @Test(arguments: ["box", "polygon"])
    func insideSQLiteEqualsTileByTile(_ area: String) throws {
        let dir = try TemporaryDirectory()
        let (coverage, bounds) = area == "box"
            ? (TileCoverage(lonLatBoxes: [Self.alaskaBox], zooms: 0...5), Self.alaskaBox)
            : try Self.polygonCoverage(zooms: 0...5)
        let fast = dir.path("fast.mbtiles"), general = dir.path("general.mbtiles")
        let source = try MBTilesSource(path: Self.raster)
        #expect((source as any TileSource) is any DirectCopyTileSource)
        #expect(!(ByNumber(source) as any TileSource is any DirectCopyTileSource))
        let fastReport = try TileCopy.run(request(fast, coverage, bounds: bounds, key: area), from: source)
        let generalReport = try TileCopy.run(request(general, coverage, bounds: bounds, key: area), from: ByNumber(source))
        try expectSameTileset(fast, general)
        #expect(fastReport == generalReport)
        #expect(fastReport.written + fastReport.absent == coverage.totalCount)
        // The raster repeats its ocean tiles: fewer images than tiles.
        let images = try #require(Int(try sqlite3Lines(fast, "SELECT count(*) FROM images").first ?? ""))
        #expect(images < fastReport.written)
    }

    @Test func vectorTilesAndTheirMetadataAreCopiedAlike() throws {
        let dir = try TemporaryDirectory()
        let source = try MBTilesSource(path: TestData.url("ne_vector_z0-6.mbtiles").path)
        let (coverage, bounds) = try Self.polygonCoverage(zooms: 0...6)
        let fast = dir.path("fast.mbtiles"), general = dir.path("general.mbtiles")
        _ = try TileCopy.run(request(fast, coverage, bounds: bounds, key: "v"), from: source)
        _ = try TileCopy.run(request(general, coverage, bounds: bounds, key: "v"), from: ByNumber(source))
        try expectSameTileset(fast, general)
        #expect(try sqlite3Lines(fast, "SELECT count(*) FROM metadata WHERE name = 'json'") == ["1"])
    }

    @Test(arguments: [2, 5])
    func interruptedCopyResumesToTheUninterruptedResult(cancelAfter pieces: Int) throws {
        let dir = try TemporaryDirectory()
        let (coverage, bounds) = try Self.polygonCoverage(zooms: 0...5)
        let whole = dir.path("whole.mbtiles")
        _ = try TileCopy.run(request(whole, coverage, bounds: bounds, key: "p"), from: MBTilesSource(path: Self.raster))

        let out = dir.path("resumed.mbtiles")
        var polls = 0
        #expect(throws: CancellationError.self) {
            try TileCopy.run(request(out, coverage, bounds: bounds, key: "p"), from: MBTilesSource(path: Self.raster),
                             isCancelled: { polls += 1; return polls == pieces })
        }
        #expect(!FileManager.default.fileExists(atPath: out))
        let kept = try #require(Int(try sqlite3Lines(out + ".partial", "SELECT count(*) FROM map").first ?? ""))
        #expect(kept > 0)
        let report = try TileCopy.run(request(out, coverage, bounds: bounds, key: "p"), from: MBTilesSource(path: Self.raster))
        #expect(report.resumed == kept)
        #expect(report.written + report.resumed + report.absent == coverage.totalCount)
        #expect(!FileManager.default.fileExists(atPath: out + ".partial"))
        try expectSameTileset(out, whole)
    }

    @Test func aPartlyCopiedPieceIsFilledIn() throws {
        let dir = try TemporaryDirectory()
        let coverage = TileCoverage(lonLatBoxes: [Self.alaskaBox], zooms: 0...5)
        let whole = dir.path("whole.mbtiles")
        _ = try TileCopy.run(request(whole, coverage, bounds: Self.alaskaBox, key: "b"), from: MBTilesSource(path: Self.raster))
        let out = dir.path("resumed.mbtiles")
        #expect(throws: CancellationError.self) {
            try TileCopy.run(request(out, coverage, bounds: Self.alaskaBox, key: "b"), from: MBTilesSource(path: Self.raster),
                             isCancelled: { true })
        }
        // Whatever was copied, take out every other tile number and one whole zoom (their
        // images stay behind, unused): the resumed run must put exactly those back.
        let partial = out + ".partial"
        let r = try runProcess("sqlite3", [partial, "DELETE FROM map WHERE (tile_column + tile_row) % 2 = 0 OR zoom_level = 5"])
        #expect(r.status == 0, "\(r.stderr)")
        _ = try TileCopy.run(request(out, coverage, bounds: Self.alaskaBox, key: "b"), from: MBTilesSource(path: Self.raster))
        #expect(try sqlite3Lines(out, Self.tilesQuery) == sqlite3Lines(whole, Self.tilesQuery))
        #expect(try sqlite3Lines(out, Self.metadataQuery) == sqlite3Lines(whole, Self.metadataQuery))
    }

    @Test func rowsOutsideTheirZoomAreNeverCopied() throws {
        let dir = try TemporaryDirectory()
        let path = TestData.url("bad_out_of_range_rows.mbtiles").path
        let world = Envelope(minX: -180, minY: -85, maxX: 180, maxY: 85)
        let out = dir.path("world.mbtiles")
        let report = try TileCopy.run(request(out, TileCoverage(lonLatBoxes: [world], zooms: 0...6), bounds: world, key: "w"),
                                      from: MBTilesSource(path: path, zooms: 0...6))
        let valid = "WHERE tile_column >= 0 AND tile_row >= 0 AND tile_column < (1 << zoom_level) AND tile_row < (1 << zoom_level)"
        let expected = try sqlite3Lines(path, "SELECT zoom_level || '/' || tile_column || '/' || tile_row || ' ' || hex(tile_data) FROM tiles \(valid) ORDER BY 1")
        let got = try sqlite3Lines(out, Self.tilesQuery)
        #expect(got == expected)
        #expect(report.written == expected.count)
        #expect(report.warnings.filter { $0.contains("31122 tile rows lie outside") }.count == 1, "\(report.warnings)")
        // The tiles of the world the file lacks are the other warning, per zoom.
        #expect(report.absent == TileCoverage(lonLatBoxes: [world], zooms: 0...6).totalCount - expected.count)
        #expect(report.warnings.count == (report.absent > 0 ? 2 : 1), "\(report.warnings)")
        #expect(try sqlite3Lines(out, "SELECT count(*) FROM images") == sqlite3Lines(out, "SELECT count(DISTINCT tile_data) FROM tiles"))
        #expect(try sqlite3Lines(out, "SELECT count(*) FROM map WHERE tile_id NOT IN (SELECT tile_id FROM images)") == ["0"])
    }

    @Test func aSourceHoldingATileTwiceIsCopiedWithOneOfItsRows() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("twice.mbtiles")
        // No unique index: zoom 1 tile 0/0 twice with different bytes, 1/0 twice alike.
        let r = try runProcess("sqlite3", [path, """
            CREATE TABLE metadata (name TEXT, value TEXT);
            CREATE TABLE tiles (zoom_level INTEGER, tile_column INTEGER, tile_row INTEGER, tile_data BLOB);
            INSERT INTO tiles VALUES (1, 0, 0, X'01'), (1, 0, 0, X'02'), (1, 1, 0, X'03'), (1, 1, 0, X'03'), (1, 1, 1, X'01');
            """])
        #expect(r.status == 0, "\(r.stderr)")
        let world = Envelope(minX: -180, minY: -85, maxX: 180, maxY: 85)
        let out = dir.path("out.mbtiles")
        _ = try TileCopy.run(request(out, TileCoverage(lonLatBoxes: [world], zooms: 1...1), bounds: world, key: "t"),
                             from: MBTilesSource(path: path))
        let tiles = try sqlite3Lines(out, Self.tilesQuery)
        #expect(tiles.count == 3)
        #expect(tiles[0] == "1/0/0 01" || tiles[0] == "1/0/0 02")
        #expect(Array(tiles.dropFirst()) == ["1/1/0 03", "1/1/1 01"])
        #expect(try sqlite3Lines(out, "SELECT count(*) FROM images WHERE tile_id NOT IN (SELECT tile_id FROM map)") == ["0"])
    }

    @Test(arguments: [nil, 0...3, 4...6] as [ClosedRange<Int>?])
    func outOfRangeRowsAreCountedOnTheZoomsAsked(_ zooms: ClosedRange<Int>?) throws {
        let dir = try TemporaryDirectory()
        let indexed = TestData.url("bad_out_of_range_rows.mbtiles").path
        // The same rows without an index: counted by a scan rather than by seeks.
        let plain = try dir.copy(testdata: "bad_out_of_range_rows.mbtiles", as: "plain.mbtiles")
        let r = try runProcess("sqlite3", [plain, "CREATE TABLE t AS SELECT * FROM tiles; DROP TABLE tiles; ALTER TABLE t RENAME TO tiles;"])
        #expect(r.status == 0, "\(r.stderr)")
        var filter = "NOT (tile_column >= 0 AND tile_row >= 0 AND tile_column < (1 << zoom_level) AND tile_row < (1 << zoom_level))"
        if let zooms { filter = "zoom_level BETWEEN \(zooms.lowerBound) AND \(zooms.upperBound) AND " + filter }
        let expected = try #require(Int(try sqlite3Lines(indexed, "SELECT count(*) FROM tiles WHERE \(filter)").first ?? ""))
        #expect(expected > 0)
        for path in [indexed, plain] {
            let reader = try MBTilesReader(path: path)
            #expect(try reader.hasNumbersIndex() == (path == indexed))
            let bad = try #require(try reader.outOfRangeRows(zooms: zooms))
            #expect(bad.count == expected)
            let e = bad.example
            #expect(zooms?.contains(e.zoom) ?? true)
            #expect(e.column >= 1 << e.zoom || e.row >= 1 << e.zoom || e.column < 0 || e.row < 0)
        }
        #expect(try MBTilesReader(path: indexed).outOfRangeRows(zooms: 7...12) == nil)
    }

    @Test func rectanglesAreCutIntoBandsOfWholeColumns() {
        let r = TileRange(z: 10, minX: 3, maxX: 12, minY: 100, maxY: 103)
        var pieces: [TileRange] = []
        r.forEachChunk(maxTiles: 9) { pieces.append($0) }
        #expect(pieces.map(\.description) == ["z10 x 3-4 y 100-103", "z10 x 5-6 y 100-103", "z10 x 7-8 y 100-103",
                                              "z10 x 9-10 y 100-103", "z10 x 11-12 y 100-103"])
        var tall: [TileRange] = []
        TileRange(z: 10, minX: 0, maxX: 1, minY: 0, maxY: 4).forEachChunk(maxTiles: 2) { tall.append($0) }
        #expect(tall.map(\.description) == ["z10 x 0-0 y 0-1", "z10 x 0-0 y 2-3", "z10 x 0-0 y 4-4",
                                            "z10 x 1-1 y 0-1", "z10 x 1-1 y 2-3", "z10 x 1-1 y 4-4"])
        #expect(pieces.reduce(0) { $0 + $1.count } == r.count)
    }
}

@Suite("Image hash table")
struct ImageHashTableTests {
    @Test func findsWhatItRecordedAndGrows() {
        let table = ImageHashTable(expected: 4)
        for i in 1...10_000 { table.insert(hash: UInt64(i) &* 0x9E37_79B9_7F4A_7C15, id: Int64(i)) }
        #expect(table.count == 10_000)
        for i in [1, 777, 10_000] {
            #expect(table.firstID(for: UInt64(i) &* 0x9E37_79B9_7F4A_7C15, where: { _ in true }) == Int64(i))
        }
        // A candidate the caller refuses (other bytes) is not an answer.
        #expect(table.firstID(for: 777 &* 0x9E37_79B9_7F4A_7C15, where: { _ in false }) == nil)
        #expect(table.firstID(for: 0xDEAD_BEEF_0000_0000, where: { _ in true }) == nil)
    }

    @Test func hashesOfDifferentBytesDiffer() {
        func hash(_ bytes: [UInt8]) -> UInt64 { bytes.withUnsafeBytes { ImageHashTable.hash($0) } }
        let samples: [[UInt8]] = [[], [0], [0, 0], [1], Array(repeating: 7, count: 8), Array(repeating: 7, count: 9),
                                  Array(0...255), Array((0...255).reversed())]
        #expect(Set(samples.map(hash)).count == samples.count)
        #expect(hash([1, 2, 3]) == hash([1, 2, 3]))
        // A byte changed in any of the four 8-byte lanes of the 32-byte steps, in the 8-byte
        // words after them, or in the last few bytes, changes the hash; so does a zero added.
        let long = (0..<1003).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        var variants = [long, long + [0], Array(long.prefix(32)), Array(long.prefix(40))]
        for position in [0, 9, 18, 27, 500, 990, 1002] {
            var changed = long
            changed[position] ^= 0x40
            variants.append(changed)
        }
        #expect(Set(variants.map(hash)).count == variants.count)
    }
}
