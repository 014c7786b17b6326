import Foundation
import Geometry
import Testing
import TestSupport
@testable import TilePackage

/// Bounding-box cases recorded from mercantile.tiles by testdata/fixtures/tiles/record.py.
struct MercantileBoxCases: Decodable {
    struct Case: Decodable, Sendable, CustomTestStringConvertible {
        var name: String
        var bbox: [Double]
        var minzoom: Int
        var maxzoom: Int
        var tiles: [String: [[Int]]]
        var testDescription: String { name }

        /// The box split at the antimeridian when it crosses it, as the tile scheme needs.
        var lonLatBoxes: [Envelope] {
            let (w, s, e, n) = (bbox[0], bbox[1], bbox[2], bbox[3])
            if w > e {
                return [Envelope(minX: w, minY: s, maxX: 180, maxY: n), Envelope(minX: -180, minY: s, maxX: e, maxY: n)]
            }
            return [Envelope(minX: w, minY: s, maxX: e, maxY: n)]
        }
    }
    var cases: [Case]

    static let loaded: [Case] = {
        guard let data = try? Data(contentsOf: TestData.fixture("tiles/mercantile_bbox_cases.json")),
              let decoded = try? JSONDecoder().decode(MercantileBoxCases.self, from: data) else { return [] }
        return decoded.cases
    }()
}

/// A box classifier, to drive the quadtree walk with something whose answer is known.
/// Edges within a micrometre count as equal: degrees -> metres moves a tile's own edge by ulps.
private struct BoxClassifier: TileAreaClassifier {
    var boxes: [Envelope]
    let tol = 1e-6
    func relation(ofMercatorSquare s: Envelope) -> TileRelation {
        var meets = false
        for b in boxes {
            if b.minX <= s.minX + tol && b.maxX >= s.maxX - tol && b.minY <= s.minY + tol && b.maxY >= s.maxY - tol { return .inside }
            if b.minX < s.maxX - tol && s.minX < b.maxX - tol && b.minY < s.maxY - tol && s.minY < b.maxY - tol { meets = true }
        }
        return meets ? .partial : .outside
    }
}

private func tiles(_ coverage: TileCoverage, zoom: Int) -> [[Int]] {
    var out: [[Int]] = []
    coverage.forEachTile(zoom: zoom) { out.append([$0.x, $0.y]) }
    return out.sorted { ($0[0], $0[1]) < ($1[0], $1[1]) }
}

@Suite("Tile coverage")
struct TileCoverageTests {
    @Test func fixtureIsPresent() {
        #expect(MercantileBoxCases.loaded.count >= 7)
    }

    @Test(arguments: MercantileBoxCases.loaded)
    func boxAgreesWithMercantile(_ c: MercantileBoxCases.Case) {
        let coverage = TileCoverage(lonLatBoxes: c.lonLatBoxes, zooms: c.minzoom...c.maxzoom)
        #expect(coverage.isRectangular)
        for z in c.minzoom...c.maxzoom {
            let expected = c.tiles[String(z)] ?? []
            #expect(tiles(coverage, zoom: z) == expected, "zoom \(z)")
            #expect(coverage.count(zoom: z) == expected.count, "zoom \(z)")
        }
    }

    @Test(arguments: MercantileBoxCases.loaded)
    func quadtreeWalkAgreesWithClosedForm(_ c: MercantileBoxCases.Case) throws {
        let zooms = c.minzoom...c.maxzoom
        let closed = TileCoverage(lonLatBoxes: c.lonLatBoxes, zooms: zooms)
        let mercatorBoxes = c.lonLatBoxes.map { b -> Envelope in
            let lo = WebMercator.mercator(lon: b.minX, lat: b.minY), hi = WebMercator.mercator(lon: b.maxX, lat: b.maxY)
            return Envelope(minX: lo.x, minY: lo.y, maxX: hi.x, maxY: hi.y)
        }
        let walked = try TileCoverage(classifier: BoxClassifier(boxes: mercatorBoxes), zooms: zooms)
        #expect(!walked.isRectangular)
        for z in zooms {
            #expect(tiles(walked, zoom: z) == tiles(closed, zoom: z), "zoom \(z)")
            #expect(walked.count(zoom: z) == closed.count(zoom: z))
            // The rectangles are disjoint: their counts add up to the tiles listed.
            #expect(walked.ranges(zoom: z).reduce(0) { $0 + $1.count } == walked.count(zoom: z))
        }
    }

    @Test func boxOnTileEdgesTakesNoNeighbours() {
        let b = WebMercator.bounds(of: TileID(z: 6, x: 10, y: 20))
        let coverage = TileCoverage(lonLatBoxes: [b], zooms: 0...8)
        #expect(coverage.ranges(zoom: 6) == [TileRange(z: 6, minX: 10, maxX: 10, minY: 20, maxY: 20)])
        #expect(coverage.count(zoom: 8) == 16)
        #expect(coverage.count(zoom: 5) == 1)
    }

    @Test func boxWithoutInteriorHasNoTiles() {
        let line = Envelope(minX: 10, minY: 10, maxX: 20, maxY: 10)
        #expect(TileCoverage(lonLatBoxes: [line], zooms: 0...5).totalCount == 0)
    }

    @Test func antimeridianHalvesShareNoTile() {
        let halves = [Envelope(minX: 170, minY: -10, maxX: 180, maxY: 10), Envelope(minX: -180, minY: -10, maxX: -170, maxY: 10)]
        let coverage = TileCoverage(lonLatBoxes: halves, zooms: 0...3)
        #expect(coverage.count(zoom: 0) == 1)
        #expect(coverage.count(zoom: 1) == 4)
        #expect(coverage.ranges(zoom: 3).map(\.count).reduce(0, +) == 4)
    }

    @Test func deepestZoomFitting() {
        let coverage = TileCoverage(lonLatBoxes: [Envelope(minX: -180, minY: -85, maxX: 180, maxY: 85)], zooms: 0...6)
        // 1 + 4 + 16 + 64 = 85 tiles up to zoom 3; 85 + 256 = 341 up to zoom 4.
        #expect(coverage.deepestZoom(fittingIn: 100) == 3)
        #expect(coverage.deepestZoom(fittingIn: 341) == 4)
        #expect(coverage.deepestZoom(fittingIn: 0) == nil)
    }

    @Test func tmsRows() {
        let r = TileRange(z: 3, minX: 1, maxX: 2, minY: 0, maxY: 1)
        #expect(r.minTMSY == 6 && r.maxTMSY == 7)
        #expect(r.subtracting(TileRange(z: 3, minX: 2, maxX: 2, minY: 1, maxY: 1)).map(\.count).reduce(0, +) == 3)
    }
}
