import Testing
@testable import Geometry

/// The Geometry module's one rule, on values.
@Suite struct GeometryIdentityTests {
    @Test func onlyTheSameVerticesAreTheSameGeometry() throws {
        let g = try Geometry(wkt: "LINESTRING Z (0 0 1, 1 1 2)")
        #expect(g.isIdentical(to: try Geometry(wkt: "LINESTRING Z (0 0 1, 1 1 2)")))
        #expect(!g.isIdentical(to: try Geometry(wkt: "LINESTRING Z (1 1 2, 0 0 1)")))
        #expect(!g.isIdentical(to: try Geometry(wkt: "LINESTRING Z (0 0 1, 1 1 3)")))
        #expect(!g.isIdentical(to: try Geometry(wkt: "LINESTRING (0 0, 1 1)")))
        #expect(!g.isIdentical(to: try Geometry(wkt: "MULTILINESTRING Z ((0 0 1, 1 1 2))")))
        // NaN is WKB's "no value": equal to itself, unlike `==` on Double.
        let nan = Geometry.point(Point(x: 1, y: 2, z: .nan))
        #expect(nan.isIdentical(to: .point(Point(x: 1, y: 2, z: .nan))) && nan != nan)
        #expect(!nan.isIdentical(to: .point(Point(x: 1, y: 2))))
        #expect(Geometry.point(Point(nil)).isIdentical(to: .point(Point(nil))))
        #expect(!Geometry.point(Point(nil)).isIdentical(to: .multiPoint(MultiPoint([]))))
    }

    @Test func theSameGeometryInAnotherEncodingOrSRSIsJudgedRight() throws {
        let g = try Geometry(wkt: "POLYGON ((0 0, 1 0, 1 1, 0 0))")
        var other = GeoPackageBinary(geometry: g, srsID: 4326, envelopeKind: .none)
        other.headerByteOrder = .bigEndian
        other.wkbByteOrder = .bigEndian
        let blob = GeoPackageBinary(geometry: g, srsID: 4326).encoded()
        #expect(blob != other.encoded() && GeoPackageBinary.sameGeometry(blob, other.encoded()))
        #expect(!GeoPackageBinary.sameGeometry(blob, GeoPackageBinary(geometry: g, srsID: 3857).encoded()))
    }
}

/// The one test of what a column takes.
@Suite struct DeclaredGeometryTypeTests {
    @Test func typesDimensionsAndPromotion() throws {
        let polygon = try Geometry(wkt: "POLYGON ((0 0, 1 0, 1 1, 0 0))")
        let multi = DeclaredGeometryType(type: .multiPolygon, z: 0, m: 0)
        #expect(multi.mismatch(polygon) != nil && multi.conformed(polygon)?.type == .multiPolygon)
        let point = DeclaredGeometryType(type: .point, z: 0, m: 0)
        #expect(point.mismatch(polygon) == "a POLYGON cannot go into a POINT column" && point.conformed(polygon) == nil)
        #expect(point.mismatch(try Geometry(wkt: "POINT Z (1 2 3)"))?.contains("no Z") == true)
        #expect(DeclaredGeometryType(type: .point, z: 1, m: 0).mismatch(try Geometry(wkt: "POINT (1 2)"))?.contains("requires Z") == true)
        #expect(DeclaredGeometryType(type: .geometryCollection, z: 2, m: 2).mismatch(try Geometry(wkt: "MULTIPOINT ((1 2))")) == nil)
        #expect(DeclaredGeometryType(type: .geometry, z: 2, m: 2).mismatch(polygon) == nil)
        let blob = GeoPackageBinary(geometry: polygon, srsID: 4326).encoded()
        #expect(!multi.admitsAsStored(blob) && DeclaredGeometryType(type: .polygon, z: 0, m: 0).admitsAsStored(blob))
    }
}
