import Foundation
import Testing
import TestSupport
@testable import TilePackage

/// Cases recorded from mercantile by testdata/fixtures/tiles/record.py.
struct MercantileCases: Decodable {
    struct PointCase: Decodable, Sendable, CustomTestStringConvertible {
        var lon: Double
        var lat: Double
        var zoom: Int
        var tile: [Int]
        var tms_y: Int
        var fraction: [Double]
        var mercator: [Double]
        var testDescription: String { "(\(lon), \(lat)) z\(zoom)" }
    }
    struct TileCase: Decodable, Sendable, CustomTestStringConvertible {
        var tile: [Int]
        var tms_y: Int
        var bounds: [Double]
        var mercator_bounds: [Double]
        var parent: [Int]?
        var children: [[Int]]
        var testDescription: String { "\(tile[2])/\(tile[0])/\(tile[1])" }
    }
    var points: [PointCase]
    var tiles: [TileCase]

    static let loaded: MercantileCases? = {
        guard let data = try? Data(contentsOf: TestData.fixture("tiles/mercantile_cases.json")) else { return nil }
        return try? JSONDecoder().decode(MercantileCases.self, from: data)
    }()
}

/// mercantile's [x, y, z] as a TileID.
private func tileID(_ xyz: [Int]) -> TileID { TileID(z: xyz[2], x: xyz[0], y: xyz[1]) }

private func close(_ a: Double, _ b: Double, tolerance: Double) -> Bool {
    abs(a - b) <= tolerance * max(1, abs(b))
}

@Suite("Tile math against mercantile")
struct TileMathTests {
    @Test func fixtureIsPresent() throws {
        let cases = try #require(MercantileCases.loaded)
        #expect(cases.points.count > 50)
        #expect(cases.tiles.count > 20)
    }

    @Test(arguments: MercantileCases.loaded?.points ?? [])
    func pointToTile(_ c: MercantileCases.PointCase) {
        let t = WebMercator.tile(lon: c.lon, lat: c.lat, zoom: c.zoom)
        #expect(t == tileID(c.tile))
        #expect(t.tmsY == c.tms_y)
        #expect(t.isValid)
        let f = WebMercator.fractionalTile(lon: c.lon, lat: c.lat, zoom: c.zoom)
        #expect(close(f.x, c.fraction[0], tolerance: 1e-9))
        #expect(close(f.y, c.fraction[1], tolerance: 1e-9))
        let m = WebMercator.mercator(lon: c.lon, lat: c.lat)
        #expect(abs(m.x - c.mercator[0]) < 1e-6)
        #expect(abs(m.y - c.mercator[1]) < 1e-6)
    }

    @Test(arguments: MercantileCases.loaded?.tiles ?? [])
    func tileBounds(_ c: MercantileCases.TileCase) {
        let t = tileID(c.tile)
        #expect(t.tmsY == c.tms_y)
        #expect(TileID(z: t.z, x: t.x, tmsY: c.tms_y) == t)
        let b = WebMercator.bounds(of: t)
        for (ours, theirs) in zip([b.minX, b.minY, b.maxX, b.maxY], c.bounds) {
            #expect(abs(ours - theirs) < 1e-9, "degrees \(ours) vs \(theirs)")
        }
        let m = WebMercator.mercatorBounds(of: t)
        for (ours, theirs) in zip([m.minX, m.minY, m.maxX, m.maxY], c.mercator_bounds) {
            #expect(abs(ours - theirs) < 1e-6, "metres \(ours) vs \(theirs)")
        }
        #expect(t.parent == c.parent.map(tileID))
        #expect(t.children == c.children.map(tileID))
        // The tile's own centre maps back to it.
        let centre = b.center
        #expect(WebMercator.tile(lon: centre.x, lat: centre.y, zoom: t.z) == t)
    }

    // The equator is a row edge at zoom 3: points on it belong to the row south of it.
    @Test func antimeridianAndPoles() {
        #expect(WebMercator.tile(lon: 180, lat: 0, zoom: 3) == TileID(z: 3, x: 7, y: 4))
        #expect(WebMercator.tile(lon: -180, lat: 0, zoom: 3) == TileID(z: 3, x: 0, y: 4))
        #expect(WebMercator.tile(lon: 0, lat: 90, zoom: 3).y == 0)
        #expect(WebMercator.tile(lon: 0, lat: -90, zoom: 3).y == 7)
        #expect(WebMercator.clampLatitude(89) == WebMercator.maxLatitude)
    }

    @Test func mercatorRoundTrip() {
        let m = WebMercator.mercator(lon: -151.0, lat: 63.1)
        let back = WebMercator.lonLat(mercatorX: m.x, y: m.y)
        #expect(abs(back.lon + 151.0) < 1e-9)
        #expect(abs(back.lat - 63.1) < 1e-9)
    }
}
