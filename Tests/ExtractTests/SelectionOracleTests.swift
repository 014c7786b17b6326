import Foundation
import Testing
import Geometry
import SQLite
import TestSupport
@testable import Extract

/// The features `create` selects and clips, against what GDAL's ogr2ogr selects (`-spat`, an
/// OGR spatial filter) and clips (`-clipsrc`) for the same areas:
/// testdata/fixtures/extract/selection.json, recorded by record.sh beside it.
@Suite struct SelectionOracleTests {
    init() { registerSourceDrivers() }

    struct Layer: Decodable {
        struct Measure: Decodable { var type: String; var area: Double; var length: Double; var boundary: Double }
        var selected: [Int64]
        var clipped: [String: Measure]
        var clipped_3857: [String: Measure]
    }
    struct Case: Decodable, CustomTestStringConvertible {
        var name: String
        var source: String
        var area: String
        var layers: [String: Layer]
        var testDescription: String { name }
    }
    struct Fixture: Decodable { var cases: [Case] }

    static let cases: [Case] = {
        guard let data = try? Data(contentsOf: TestData.fixture("extract/selection.json")),
              let fixture = try? JSONDecoder().decode(Fixture.self, from: data) else { return [] }
        return fixture.cases
    }()

    /// The fixture decodes: an unreadable one would leave the tests below without cases.
    @Test func fixtureIsPresent() {
        #expect(Self.cases.count == 5)
    }

    static let validator = GDALValidator.script

    func build(_ c: Case, clip: Bool, in dir: TemporaryDirectory) throws -> String {
        let output = dir.path("\(c.name)\(clip ? "-clip" : "").pkg")
        let request = ExtractRequest(area: c.area, source: TestData.url(c.source).path,
                                     layers: c.layers.keys.sorted(), clip: clip, register: false, output: output)
        _ = try Extractor.create(request)
        return output + "/data.gpkg"
    }

    func fids(_ db: Connection, _ layer: String) throws -> [Int64] {
        try db.query("SELECT fid FROM \"\(layer)\" ORDER BY fid").compactMap { $0[0].int64Value }
    }

    @Test(arguments: cases)
    func selectsWhatOgr2ogrSelects(_ c: Case) throws {
        let dir = try TemporaryDirectory()
        let path = try build(c, clip: false, in: dir)
        let db = try Connection(path: path, mode: .readOnly)
        for (name, expected) in c.layers {
            #expect(try fids(db, name) == expected.selected, "\(c.name) \(name)")
        }
        let result = try runProcess("/usr/bin/python3", [Self.validator, path])
        #expect(result.status == 0 && result.stdout.isEmpty && result.stderr.isEmpty, "\(result.stdout)\(result.stderr)")
    }

    @Test(arguments: cases)
    func clipsAsOgr2ogrClips(_ c: Case) throws {
        let dir = try TemporaryDirectory()
        let path = try build(c, clip: true, in: dir)
        let db = try Connection(path: path, mode: .readOnly)
        let context = try GEOSContext()
        for (name, expected) in c.layers {
            #expect(try fids(db, name) == expected.clipped.keys.compactMap { Int64($0) }.sorted(), "\(c.name) \(name)")
            for row in try db.query("SELECT fid, geom FROM \"\(name)\"") {
                guard let fid = row[0].int64Value, let blob = row[1].blobValue,
                      let oracle = expected.clipped[String(fid)] else { continue }
                let g = try GeoPackageBinary(bytes: blob).geometry
                if oracle.area > 0 {
                    let area = try context.area(g)
                    #expect(abs(area - oracle.area) <= 1e-9 * oracle.area, "\(c.name) \(name) fid \(fid): \(area) vs \(oracle.area)")
                }
                if oracle.length > 0 {
                    let length = try context.length(g)
                    #expect(abs(length - oracle.length) <= 1e-9 * oracle.length, "\(c.name) \(name) fid \(fid)")
                }
            }
        }
        let result = try runProcess("/usr/bin/python3", [Self.validator, path])
        #expect(result.status == 0 && result.stdout.isEmpty && result.stderr.isEmpty, "\(result.stdout)\(result.stderr)")
        let info = try runProcess("ogrinfo", ["-ro", "-so", "-al", path])
        #expect(info.status == 0, "\(info.stderr)")
    }
}

extension SelectionOracleTests {
    /// `--clip --crs EPSG:3857` against `ogr2ogr -clipsrc ... -t_srs EPSG:3857`: clipped in
    /// the layer's CRS, then reprojected.
    @Test(arguments: cases)
    func clipsAndReprojectsAsOgr2ogr(_ c: Case) throws {
        let dir = try TemporaryDirectory()
        let output = dir.path("\(c.name)-3857.pkg")
        let request = ExtractRequest(area: c.area, source: TestData.url(c.source).path, layers: c.layers.keys.sorted(),
                                     clip: true, crs: "EPSG:3857", register: false, output: output)
        let result = try Extractor.create(request)
        #expect(result.layers.allSatisfy { $0.crs == "EPSG:3857" && $0.cut.reprojectedFrom == "EPSG:4326" })
        let path = output + "/data.gpkg"
        let db = try Connection(path: path, mode: .readOnly)
        let context = try GEOSContext()
        for (name, expected) in c.layers {
            #expect(try fids(db, name) == expected.clipped_3857.keys.compactMap { Int64($0) }.sorted(), "\(c.name) \(name)")
            for row in try db.query("SELECT fid, geom FROM \"\(name)\"") {
                guard let fid = row[0].int64Value, let blob = row[1].blobValue,
                      let oracle = expected.clipped_3857[String(fid)], oracle.area > 0 else { continue }
                let area = try context.area(try GeoPackageBinary(bytes: blob).geometry)
                #expect(abs(area - oracle.area) <= 1e-9 * oracle.area, "\(c.name) \(name) fid \(fid): \(area) vs \(oracle.area)")
            }
        }
        #expect(try db.scalar("SELECT count(*) FROM gpkg_spatial_ref_sys WHERE srs_id = 3857")?.int64Value == 1)
        let result2 = try runProcess("/usr/bin/python3", [Self.validator, path])
        #expect(result2.status == 0 && result2.stdout.isEmpty && result2.stderr.isEmpty, "\(result2.stdout)\(result2.stderr)")
    }
}

extension SelectionOracleTests {
    /// A box across the antimeridian reaches the R-tree as its two halves, not as one box
    /// around the world (the fixture's ne_antimeridian case checks what gets selected).
    @Test func antimeridianBoxIsQueriedAsItsTwoHalves() throws {
        let request = ExtractRequest(area: "170,-25,-170,70", source: TestData.url("naturalearth.gpkg").path,
                                     layers: ["countries"], register: false, output: "")
        let prepared = try Extractor.prepare(request)
        let area = try #require(prepared.areas["countries"])
        let boxes = SourceReader.prefilterBoxes(area)
        #expect(boxes == [Envelope(minX: 170, minY: -25, maxX: 180, maxY: 70), Envelope(minX: -180, minY: -25, maxX: -170, maxY: 70)])
        #expect(prepared.lonLatArea.envelope == Envelope(minX: -180, minY: -25, maxX: 180, maxY: 70))
    }
}
