import Foundation
import Testing
import TestSupport
@testable import Geometry

@Suite("GeoJSON")
struct GeoJSONTests {
    @Test("every geometry of the real layers round-trips through GeoJSON up to ring orientation",
          arguments: LayerBlobs.all)
    func realDataRoundTrip(_ layer: LayerBlobs) throws {
        let geometries = try layer.geometries()
        #expect(!geometries.isEmpty, "\(layer) has geometries")
        for (fid, g) in geometries {
            let wound = try Geometry(geoJSON: Data(g.geoJSON().utf8))
            #expect(equalUpToOrientation(wound, g), "fid \(fid) of \(layer)")
            assertRFC7946Winding(wound, "fid \(fid)")
            // Without rewinding, the rings come back exactly as they were.
            #expect(try Geometry(geoJSON: Data(g.geoJSON(rfc7946Winding: false).utf8)) == g, "fid \(fid)")
        }
    }

    @Test("our RFC 7946 output matches GDAL's, orientation included")
    func matchesGDALRFC7946() throws {
        let data = try Data(contentsOf: TestData.fixture("gdal_rfc7946_countries.geojson"))
        let gdal = try GeoJSON.features(in: data)
        #expect(gdal.count == 5)
        let ours = Dictionary(uniqueKeysWithValues: try LayerBlobs.all[0].geometries().map { ($0.fid, $0.geometry) })
        for feature in gdal {
            let fid = try #require(feature.properties["feature_id"]?.stringValue.flatMap { Int($0) })
            let expected = try #require(feature.geometry)
            var mine = try Geometry(geoJSON: Data(try #require(ours[fid]).geoJSON().utf8))
            // GDAL's RFC 7946 writer turns a one-part MultiPolygon into a Polygon.
            if case .polygon = expected, case .multiPolygon(let m) = mine, m.polygons.count == 1 { mine = .polygon(m.polygons[0]) }
            #expect(approximatelyEqual(mine, expected), "fid \(fid)")
        }
    }

    @Test("the airports file reads like GDAL reads it")
    func airportsMatchGDAL() throws {
        let features = try GeoJSON.features(in: try Data(contentsOf: TestData.url("ne_10m_airports.geojson")))
        #expect(features.count == 891)
        let r = try runProcess("ogr2ogr", ["-f", "CSV", "/vsistdout/", TestData.url("ne_10m_airports.geojson").path,
                                           "-lco", "GEOMETRY=AS_WKT", "-select", "name,iata_code,scalerank"])
        try #require(r.status == 0, "\(r.stderr)")
        let rows = r.stdout.split(separator: "\n").dropFirst()
        #expect(rows.count == features.count)
        for (row, feature) in zip(rows, features) {
            // "POINT (x y)",name,iata_code,scalerank
            let wktEnd = try #require(row.dropFirst().firstIndex(of: "\""))
            let gdalPoint = try Geometry(wkt: String(row[row.index(after: row.startIndex)..<wktEnd]))
            let geometry = try #require(feature.geometry)
            #expect(approximatelyEqual(geometry, gdalPoint), "\(row)")
            let name = try #require(feature.properties["name"]?.stringValue)
            #expect(row.contains(name))
            let rank = try #require(feature.properties["scalerank"])
            let expectedRank = Int64(String(row.split(separator: ",").last!.filter(\.isNumber)))!
            #expect(rank == JSONValue.int(expectedRank))
        }
        #expect(features.contains { $0.properties["iata_code"] == .string("ANC") })
    }

    @Test func geometriesOfEachDocumentKind() throws {
        let point = #"{"type":"Point","coordinates":[1,2]}"#
        let feature = #"{"type":"Feature","properties":{"a":1},"geometry":\#(point)}"#
        let nullFeature = #"{"type":"Feature","properties":null,"geometry":null}"#
        let collection = #"{"type":"FeatureCollection","features":[\#(feature),\#(nullFeature),\#(feature)]}"#
        let p = Geometry.point(Point(x: 1, y: 2))
        #expect(try GeoJSON.geometries(in: Data(point.utf8)) == [p])
        #expect(try GeoJSON.geometries(in: Data(feature.utf8)) == [p])
        #expect(try GeoJSON.geometries(in: Data(collection.utf8)) == [p, p])
        let features = try GeoJSON.features(in: Data(collection.utf8))
        #expect(features.count == 3)
        #expect(features[0].properties == ["a": .int(1)])
        #expect(features[1].geometry == nil && features[1].properties.isEmpty)
        #expect(throws: GeometryError.self) { try GeoJSON.features(in: Data(point.utf8)) }
        #expect(throws: GeometryError.self) { try Geometry(geoJSON: Data(feature.utf8)) }
    }

    @Test func propertyValues() throws {
        let text = #"""
        {"type":"Feature","geometry":null,"properties":{"i":9007199254740993,"d":-1.5e-3,"s":"Ta\u00EFwan \ud83d\ude00 \"q\"\n",
         "b":true,"n":null,"a":[1,"x",false],"o":{"k":0.1}}}
        """#
        let p = try #require(try GeoJSON.features(in: Data(text.utf8)).first).properties
        #expect(p["i"] == .int(9_007_199_254_740_993))
        #expect(p["d"] == .number(-0.0015))
        #expect(p["s"] == .string("Taïwan 😀 \"q\"\n"))
        #expect(p["b"] == .bool(true))
        #expect(p["n"] == .null)
        #expect(p["a"] == .array([.int(1), .string("x"), .bool(false)]))
        #expect(p["o"] == .object(["k": .number(0.1)]))
    }

    @Test("Z round-trips; M is dropped, as RFC 7946 positions have no measure", arguments: dimensionSamples)
    func dimensions(_ g: Geometry) throws {
        let back = try Geometry(geoJSON: Data(g.geoJSON(rfc7946Winding: false).utf8))
        let withoutM = g.mapCoordinates { Coordinate(x: $0.x, y: $0.y, z: $0.z) }
        #expect(back == withoutM)
    }

    @Test func writesCompactRFC7946() throws {
        // A clockwise exterior with a counter-clockwise hole: both get reversed.
        let polygon = Geometry.polygon(Polygon([
            [Coordinate(0, 0), Coordinate(0, 10), Coordinate(10, 10), Coordinate(10, 0), Coordinate(0, 0)],
            [Coordinate(2, 2), Coordinate(4, 2), Coordinate(4, 4), Coordinate(2, 2)],
        ]))
        #expect(polygon.geoJSON() ==
            #"{"type":"Polygon","coordinates":[[[0,0],[10,0],[10,10],[0,10],[0,0]],[[2,2],[4,4],[4,2],[2,2]]]}"#)
        #expect(Geometry.point(Point(x: 0.1, y: -2, z: 1e-7)).geoJSON() == #"{"type":"Point","coordinates":[0.1,-2,1e-07]}"#)
        #expect(Geometry.point(Point(nil)).geoJSON() == #"{"type":"Point","coordinates":[]}"#)
        #expect(try Geometry(geoJSON: Data(#"{"type":"Point","coordinates":[]}"#.utf8)) == .point(Point(nil)))
        let gc = Geometry.geometryCollection(GeometryCollection([.point(Point(x: 1, y: 2)), .multiPoint(MultiPoint([]))]))
        #expect(gc.geoJSON() == #"{"type":"GeometryCollection","geometries":[{"type":"Point","coordinates":[1,2]},{"type":"MultiPoint","coordinates":[]}]}"#)
        #expect(try Geometry(geoJSON: Data(gc.geoJSON().utf8)) == gc)
    }

    @Test(arguments: [
        ("", "unexpected end"),
        ("{", "expected a string key"),
        (#"{"type":"Point","coordinates":[1,2]"#, "expected ',' or '}'"),
        (#"{"type":"Point","coordinates":[1]}"#, "at least 2 needed"),
        (#"{"type":"Point","coordinates":[1,"2"]}"#, "is not a number"),
        (#"{"type":"Point","coordinates":[01,2]}"#, "leading zero"),
        (#"{"type":"Point","coordinates":[1.,2]}"#, "without digits"),
        (#"{"type":"Point","coordinates":[NaN,2]}"#, "invalid value"),
        (#"{"type":"Point"}"#, "has no \"coordinates\""),
        (#"{"type":"Circle","coordinates":[1,2]}"#, "unknown geometry type \"Circle\""),
        (#"{"coordinates":[1,2]}"#, "has no \"type\""),
        (#"[1,2]"#, "not a JSON object"),
        (#"{"type":"Polygon","coordinates":[[1,2]]}"#, "is not an array"),
        (#"{"type":"GeometryCollection"}"#, "no \"geometries\" array"),
        (#"{"type":"Point","coordinates":[1,2]} x"#, "unexpected data after"),
        ("{\"type\":\"Po\u{01}int\"}", "control character"),
        (#"{"type":"Point","coordinates":[1,2],"x":"\q"}"#, "invalid escape"),
    ])
    func badInput(_ text: String, _ message: String) throws {
        let error = #expect(throws: GeometryError.self) { try Geometry(geoJSON: Data(text.utf8)) }
        #expect(error?.kind == .malformedInput)
        #expect(error?.message.contains(message) == true, "\(error?.message ?? "")")
        #expect(error?.message.hasPrefix("GeoJSON") == true)
    }

    @Test func deepNestingIsCapped() throws {
        let json = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        let error = #expect(throws: GeometryError.self) { try GeoJSON.geometries(in: Data(json.utf8)) }
        #expect(error?.message.contains("nested") == true)
        var gc = #"{"type":"Point","coordinates":[1,2]}"#
        for _ in 0..<40 { gc = #"{"type":"GeometryCollection","geometries":[\#(gc)]}"# }
        let collections = #expect(throws: GeometryError.self) { try Geometry(geoJSON: Data(gc.utf8)) }
        #expect(collections?.message.contains("nested") == true)
    }

    private func assertRFC7946Winding(_ g: Geometry, _ comment: Comment) {
        func check(_ p: Polygon) {
            for (i, ring) in p.rings.enumerated() {
                #expect(i == 0 ? ring.signedArea >= 0 : ring.signedArea <= 0, comment)
            }
        }
        switch g {
        case .polygon(let p): check(p)
        case .multiPolygon(let m): m.polygons.forEach(check)
        default: break
        }
    }
}
