import Foundation
import Geometry
import Testing
import TestSupport
@testable import TilePackage

/// Park outlines and their tiles computed with GDAL by
/// testdata/fixtures/tiles/record_polygon_coverage.py.
struct ParkCoverageCases: Decodable {
    struct Case: Decodable, Sendable, CustomTestStringConvertible {
        var name: String
        var wkt: String
        var densify_degrees: Double
        var minzoom: Int
        var maxzoom: Int
        var tiles: [String: [[Int]]]
        var testDescription: String { name }
    }
    var cases: [Case]

    static let loaded: [Case] = {
        guard let data = try? Data(contentsOf: TestData.fixture("tiles/park_coverage.json")),
              let decoded = try? JSONDecoder().decode(ParkCoverageCases.self, from: data) else { return [] }
        return decoded.cases
    }()
}

@Suite("Polygon coverage against GDAL")
struct PolygonCoverageTests {
    @Test func fixtureIsPresent() {
        #expect(ParkCoverageCases.loaded.count == 2)
    }

    @Test(arguments: ParkCoverageCases.loaded)
    func parkTilesEqualGDAL(_ c: ParkCoverageCases.Case) throws {
        #expect(c.densify_degrees == TileCoverage.densifyDegrees)
        let context = try GEOSContext()
        let park = try context.geometry(fromWKT: c.wkt)
        let coverage = try TileCoverage(lonLatArea: park, zooms: c.minzoom...c.maxzoom, context: context)
        for z in c.minzoom...c.maxzoom {
            var ours: [[Int]] = []
            coverage.forEachTile(zoom: z) { ours.append([$0.x, $0.y]) }
            ours.sort { ($0[0], $0[1]) < ($1[0], $1[1]) }
            let expected = (c.tiles[String(z)] ?? []).sorted { ($0[0], $0[1]) < ($1[0], $1[1]) }
            #expect(ours == expected, "zoom \(z): \(ours.count) tiles, GDAL \(expected.count)")
            #expect(coverage.count(zoom: z) == expected.count)
        }
        // The polygon, not its bounding box: at the deepest zoom the box holds many more tiles.
        let box = try #require(park.envelope)
        let boxCoverage = TileCoverage(lonLatBoxes: [box], zooms: c.maxzoom...c.maxzoom)
        #expect(boxCoverage.count(zoom: c.maxzoom) > coverage.count(zoom: c.maxzoom) * 5 / 4)
    }
}

/// A polygon over the Bering Sea and its tiles computed with GDAL by
/// testdata/fixtures/tiles/record_antimeridian_coverage.py (GDAL splits it at the line).
struct AntimeridianCoverageCase: Decodable {
    var unwrapped_wkt: String
    var crossing_wkt: String
    var split_wkt: String
    var densify_degrees: Double
    var minzoom: Int
    var maxzoom: Int
    var tiles: [String: [[Int]]]

    static func load() throws -> AntimeridianCoverageCase {
        try JSONDecoder().decode(AntimeridianCoverageCase.self,
                                 from: Data(contentsOf: TestData.fixture("tiles/antimeridian_coverage.json")))
    }
}

@Suite("Polygons crossing the antimeridian")
struct AntimeridianCoverageTests {
    @Test(arguments: ["longitudes beyond 180", "an edge jumping across", "split at the line"])
    func tilesEqualGDALs(_ form: String) throws {
        let c = try AntimeridianCoverageCase.load()
        #expect(c.densify_degrees == TileCoverage.densifyDegrees)
        let wkt = form == "longitudes beyond 180" ? c.unwrapped_wkt : form == "an edge jumping across" ? c.crossing_wkt : c.split_wkt
        let context = try GEOSContext()
        let area = try context.geometry(fromWKT: wkt)
        let coverage = try TileCoverage(lonLatArea: area, zooms: c.minzoom...c.maxzoom, context: context)
        for z in c.minzoom...c.maxzoom {
            var ours: [[Int]] = []
            coverage.forEachTile(zoom: z) { ours.append([$0.x, $0.y]) }
            ours.sort { ($0[0], $0[1]) < ($1[0], $1[1]) }
            #expect(ours == c.tiles[String(z)], "zoom \(z): \(ours.count) tiles, GDAL \(c.tiles[String(z)]?.count ?? 0)")
        }
        // Tiles on both sides of the line: the western edge of the world and the eastern.
        let deepest = c.tiles[String(c.maxzoom)] ?? []
        #expect(deepest.contains { $0[0] == 0 } && deepest.contains { $0[0] == (1 << c.maxzoom) - 1 })
        let bounds = try #require(TileCoverage.lonLatBounds(of: area))
        #expect([bounds.minX, bounds.minY, bounds.maxX, bounds.maxY] == [165, 52, -160, 70])
    }

    @Test func anAreaCrossingNothingIsLeftAsItIs() throws {
        let context = try GEOSContext()
        let area = try context.geometry(fromWKT: "POLYGON ((-170 50, -130 52, -140 71, -170 50))")
        #expect(try TileCoverage.splitAtAntimeridian(area, context: context) == area)
        let bounds = try #require(TileCoverage.lonLatBounds(of: area))
        #expect([bounds.minX, bounds.maxX] == [-170, -130])
    }

    @Test func aHoleAcrossTheLineStaysInItsPolygon() throws {
        let context = try GEOSContext()
        // A ring from 165 to -165 with a hole from 175 to -175, both written with edges
        // jumping across: the tiles inside the hole (mercantile: 7/0/69 and 7/127/69, at
        // -180...-177.19 and 177.19...180 by -16.6...-13.9) are not taken, those between
        // hole and ring are, and the long way round is not the area.
        let area = try context.geometry(fromWKT: """
            POLYGON ((165 -25, -165 -25, -165 -5, 165 -5, 165 -25), (175 -18, -175 -18, -175 -12, 175 -12, 175 -18))
            """)
        let coverage = try TileCoverage(lonLatArea: area, zooms: 7...7, context: context)
        var tiles = Set<TileID>()
        coverage.forEachTile(zoom: 7) { tiles.insert($0) }
        for x in [0, 127, 64] { #expect(!tiles.contains(TileID(z: 7, x: x, y: 69)), "x \(x)") }
        for x in [4, 123] { #expect(tiles.contains(TileID(z: 7, x: x, y: 69)), "x \(x)") }
        let bounds = try #require(TileCoverage.lonLatBounds(of: area))
        #expect([bounds.minX, bounds.maxX] == [165, -165])
    }

    @Test func boundsOfPartsOnBothSidesSpanTheLine() throws {
        let context = try GEOSContext()
        let islands = try context.geometry(fromWKT: "MULTIPOLYGON (((177 -18, 179 -18, 179 -16, 177 -16, 177 -18)), ((-179 -17, -178 -17, -178 -15, -179 -15, -179 -17)))")
        let b = try #require(TileCoverage.lonLatBounds(of: islands))
        #expect([b.minX, b.minY, b.maxX, b.maxY] == [177, -18, -178, -15])
        let apart = try context.geometry(fromWKT: "MULTIPOLYGON (((-10 0, 0 0, 0 5, -10 0)), ((20 0, 30 0, 30 5, 20 0)))")
        let a = try #require(TileCoverage.lonLatBounds(of: apart))
        #expect([a.minX, a.maxX] == [-10, 30])
        let world = try context.geometry(fromWKT: "POLYGON ((-180 -60, 180 -60, 180 60, -180 60, -180 -60))")
        let w = try #require(TileCoverage.lonLatBounds(of: world))
        #expect([w.minX, w.maxX] == [-180, 180])
    }
}
