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
