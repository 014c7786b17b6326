import Foundation
import Testing
import TestSupport
@testable import Geometry

@Suite("WKT")
struct WKTTests {
    @Test("every geometry of the real layers round-trips exactly through WKT", arguments: LayerBlobs.all)
    func realDataRoundTrip(_ layer: LayerBlobs) throws {
        let geometries = try layer.geometries()
        #expect(!geometries.isEmpty, "\(layer) has geometries")
        for (fid, g) in geometries {
            let text = g.wkt
            #expect(try Geometry(wkt: text) == g, "fid \(fid) of \(layer)")
        }
    }

    @Test("our geometries match GDAL's WKT of the same features",
          arguments: [("gdal_wkt_countries.csv", LayerBlobs.all[0]), ("gdal_wkt_cities.csv", LayerBlobs.all[1]),
                      ("gdal_wkt_parks.csv", LayerBlobs.all[2])])
    func matchesGDAL(_ fixture: String, _ layer: LayerBlobs) throws {
        let ours = Dictionary(uniqueKeysWithValues: try layer.geometries().map { ($0.fid, $0.geometry) })
        let gdal = try gdalWKTFixture(fixture)
        #expect(gdal.count >= 5)
        for (fid, wkt) in gdal {
            let expected = try Geometry(wkt: wkt)
            let mine = try #require(ours[fid])
            #expect(approximatelyEqual(mine, expected), "fid \(fid) of \(layer)")
            // Same type word and layout as GDAL's text, up to the digits GDAL drops.
            #expect(mine.wkt.prefix(while: { $0 != "(" }) == wkt.prefix(while: { $0 != "(" }))
        }
    }

    @Test("GDAL's ISO WKT of every type parses to the geometry of GDAL's WKB",
          arguments: try GDALWKBFixture.load())
    func gdalTextMatchesGDALBytes(_ f: GDALWKBFixture) throws {
        let fromBytes = try Geometry(wkb: f.isoLittleEndian)
        // Our own text of it is exact; GDAL's is exact where it printed every digit.
        #expect(sameBits(try Geometry(wkt: fromBytes.wkt), fromBytes))
        #expect(sameBits(try Geometry(wkt: f.wkt), fromBytes))
        if !f.isEmptyWithOrdinates, !f.wkt.contains("e-300"), !f.wkt.contains("179.99999999999997") {
            #expect(sameBits(try Geometry(wkt: f.gdalWKT), fromBytes))
            // And our text is GDAL's, where GDAL does not write a whole number as "2.0".
            if !f.gdalWKT.contains(".0 ") { #expect(fromBytes.wkt == f.gdalWKT) }
        }
    }

    @Test("Z, M and ZM round-trip", arguments: dimensionSamples)
    func dimensions(_ g: Geometry) throws {
        let text = g.wkt
        #expect(try Geometry(wkt: text) == g)
        let word = text.prefix(while: { $0 != "(" })
        switch g.dimension {
        case .xy: #expect(!word.contains(" Z") && !word.contains(" M"))
        case .xyz: #expect(word.hasSuffix(" Z "))
        case .xym: #expect(word.hasSuffix(" M "))
        case .xyzm: #expect(word.hasSuffix(" ZM "))
        }
    }

    @Test func writesTheISOForms() {
        #expect(Geometry.point(Point(x: 1, y: 2, z: 3, m: 4)).wkt == "POINT ZM (1 2 3 4)")
        #expect(Geometry.lineString(LineString([Coordinate(x: 0.5, y: -0.0, m: 1e16)])).wkt == "LINESTRING M (0.5 -0 1e+16)")
        #expect(Geometry.point(Point(nil)).wkt == "POINT EMPTY")
        #expect(Geometry.polygon(Polygon([])).wkt == "POLYGON EMPTY")
        #expect(Geometry.multiPoint(MultiPoint([Point(nil), Point(x: 1, y: 2)])).wkt == "MULTIPOINT (EMPTY,(1 2))")
        #expect(Geometry.geometryCollection(GeometryCollection([])).wkt == "GEOMETRYCOLLECTION EMPTY")
    }

    @Test(arguments: [
        ("POINT(1 2)", Geometry.point(Point(x: 1, y: 2))),
        ("point z ( 1 2 3 )", .point(Point(x: 1, y: 2, z: 3))),
        ("POINT (1 2 3)", .point(Point(x: 1, y: 2, z: 3))),
        ("POINT (1 2 3 4)", .point(Point(x: 1, y: 2, z: 3, m: 4))),
        ("POINTM (1 2 3)", .point(Point(x: 1, y: 2, m: 3))),
        ("POINT M (1 2 3)", .point(Point(x: 1, y: 2, m: 3))),
        ("SRID=4326;POINT (1 2)", .point(Point(x: 1, y: 2))),
        ("MULTIPOINT (1 2, 3 4)", .multiPoint(MultiPoint([Point(x: 1, y: 2), Point(x: 3, y: 4)]))),
        ("MULTIPOINT ((1 2), EMPTY)", .multiPoint(MultiPoint([Point(x: 1, y: 2), Point(nil)]))),
        ("MULTIPOLYGON (EMPTY, ((0 0, 1 0, 0 1, 0 0)))",
         .multiPolygon(MultiPolygon([Polygon([]), Polygon([[Coordinate(0, 0), Coordinate(1, 0), Coordinate(0, 1), Coordinate(0, 0)]])]))),
        ("GEOMETRYCOLLECTION Z (POINT (1 2 3))", .geometryCollection(GeometryCollection([.point(Point(x: 1, y: 2, z: 3))]))),
        ("LINESTRING EMPTY", .lineString(LineString([]))),
        ("\n\tLINESTRING(1e3 -2.5E-1,\n 0 0)  ", .lineString(LineString([Coordinate(1000, -0.25), Coordinate(0, 0)]))),
    ])
    func readsOtherForms(_ text: String, _ expected: Geometry) throws {
        #expect(try Geometry(wkt: text) == expected)
    }

    @Test(arguments: [
        ("", "expected a geometry type"),
        ("POINT", "expected '('"),
        ("POINT (1)", "at least 2 numbers"),
        ("POINT (1 2", "expected ')'"),
        ("POINT (1 2 3 4 5)", "at most 4 numbers"),
        ("POINT (1 x)", "'x' is not a number"),
        ("POINT Z (1 2)", "2 numbers, 3 expected"),
        ("LINESTRING (0 0, 1 1 1)", "3 numbers, 2 expected"),
        ("POINT (1 2) extra", "unexpected text after the geometry"),
        ("BLOB (1 2)", "unknown geometry type 'BLOB'"),
        ("POLYGON ((0 0, 1 1), )", "expected '(' at character 22"),
        ("SRID=4326 POINT (1 2)", "without ';'"),
    ])
    func badInput(_ text: String, _ message: String) throws {
        let error = #expect(throws: GeometryError.self) { try Geometry(wkt: text) }
        #expect(error?.kind == .malformedInput)
        #expect(error?.message.contains(message) == true, "\(error?.message ?? "")")
        #expect(error?.message.hasPrefix("WKT:") == true)
    }

    @Test func curvesAreUnsupported() throws {
        let error = #expect(throws: GeometryError.self) { try Geometry(wkt: "CIRCULARSTRING (0 0, 1 1, 2 0)") }
        #expect(error?.kind == .unsupported)
    }

    @Test func deepNestingIsCapped() throws {
        let deep = String(repeating: "GEOMETRYCOLLECTION (", count: 10_000) + "POINT (1 2)" + String(repeating: ")", count: 10_000)
        let error = #expect(throws: GeometryError.self) { try Geometry(wkt: deep) }
        #expect(error?.message.contains("nested") == true)
    }
}
