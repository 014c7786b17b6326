import Testing
@testable import Geometry

@Suite("GEOS conversion: values in and out of GEOS unchanged, bad shapes refused")
struct GEOSConversionTests {
    let context: GEOSContext

    init() throws { context = try GEOSContext() }

    static let shapes: [Geometry] = [
        .point(Point(x: 1.5, y: -2.25)),
        .point(Point(nil)),
        .point(Point(x: 1, y: 2, z: 3)),
        .lineString(LineString([Coordinate(0, 0), Coordinate(1, 1), Coordinate(2, 0)])),
        .lineString(LineString([])),
        .lineString(LineString([Coordinate(x: 0, y: 0, z: 10), Coordinate(x: 1, y: 1, z: 20)])),
        .polygon(Polygon(exterior: [Coordinate(0, 0), Coordinate(10, 0), Coordinate(10, 10), Coordinate(0, 10), Coordinate(0, 0)],
                         holes: [[Coordinate(2, 2), Coordinate(2, 4), Coordinate(4, 4), Coordinate(4, 2), Coordinate(2, 2)]])),
        .polygon(Polygon([])),
        .multiPoint(MultiPoint([Point(x: 0, y: 0), Point(x: 5, y: 5)])),
        .multiLineString(MultiLineString([LineString([Coordinate(0, 0), Coordinate(1, 1)]),
                                          LineString([Coordinate(2, 2), Coordinate(3, 3)])])),
        .multiPolygon(MultiPolygon([Envelope(minX: 0, minY: 0, maxX: 1, maxY: 1).polygon,
                                    Envelope(minX: 2, minY: 2, maxX: 3, maxY: 3).polygon])),
        .multiPolygon(MultiPolygon([])),
        .geometryCollection(GeometryCollection([.point(Point(x: 1, y: 1)),
                                                .lineString(LineString([Coordinate(0, 0), Coordinate(1, 0)]))])),
    ]

    @Test("round trip through GEOS", arguments: shapes)
    func roundTrip(_ g: Geometry) throws {
        #expect(try context.value(context.object(g)) == g)
    }

    @Test("GEOS's WKT reader gives the value the WKT describes")
    func wktReader() throws {
        let g = try context.geometry(fromWKT: "POLYGON Z ((0 0 1, 4 0 2, 4 3 3, 0 0 1))")
        #expect(g == .polygon(Polygon(exterior: [Coordinate(x: 0, y: 0, z: 1), Coordinate(x: 4, y: 0, z: 2),
                                                 Coordinate(x: 4, y: 3, z: 3), Coordinate(x: 0, y: 0, z: 1)])))
    }

    @Test("text that is not WKT is malformed input carrying GEOS's message")
    func badWKT() throws {
        let error = try #require(throws: GeometryError.self) { try context.geometry(fromWKT: "POLYGON ((0 0, 1") }
        #expect(error.kind == .malformedInput)
        #expect(error.message.contains("POLYGON ((0 0, 1"))
    }

    @Test("a ring of two points is an invalid geometry error naming the ring, not a crash")
    func twoPointRing() throws {
        let g = Geometry.polygon(Polygon(exterior: [Coordinate(0, 0), Coordinate(1, 1)]))
        let error = try #require(throws: GeometryError.self) { try context.area(g) }
        #expect(error.kind == .invalidGeometry)
        #expect(error.message.contains("exterior ring"))
        #expect(error.message.contains("LinearRing"))  // GEOS's own words
    }

    @Test("an unclosed hole in the second polygon is refused, and the context stays usable")
    func unclosedHole() throws {
        let bad = Geometry.multiPolygon(MultiPolygon([
            Envelope(minX: 0, minY: 0, maxX: 1, maxY: 1).polygon,
            Polygon(exterior: Envelope(minX: 2, minY: 2, maxX: 6, maxY: 6).polygon.rings[0],
                    holes: [[Coordinate(3, 3), Coordinate(4, 3), Coordinate(4, 4), Coordinate(3, 4)]]),
        ]))
        let error = try #require(throws: GeometryError.self) { try context.area(bad) }
        #expect(error.kind == .invalidGeometry)
        #expect(error.message.contains("interior ring 0 of polygon 1"))
        #expect(try context.area(Shapes.square(0, 0, 2)) == 4)
    }

    @Test("a line of one point is refused")
    func onePointLine() throws {
        let error = try #require(throws: GeometryError.self) {
            try context.length(.lineString(LineString([Coordinate(1, 1)])))
        }
        #expect(error.kind == .invalidGeometry)
    }

    @Test("validity reports a two-point ring as invalid instead of throwing")
    func validityOfUnbuildable() throws {
        let g = Geometry.polygon(Polygon(exterior: [Coordinate(0, 0), Coordinate(1, 1)]))
        let v = try context.validity(g)
        #expect(!v.isValid)
        #expect(v.reason?.contains("LinearRing") == true)
    }

    @Test("M survives operations: input vertices keep theirs, cut points interpolate, box corners get NaN")
    func measuresRestored() throws {
        let line = Geometry.lineString(LineString([Coordinate(x: 0, y: 0, m: 0), Coordinate(x: 10, y: 0, m: 100),
                                                   Coordinate(x: 10, y: 10, m: 200)]))
        let clipped = try #require(try context.clip(line, to: Envelope(minX: -1, minY: -1, maxX: 5, maxY: 1)))
        guard case .lineString(let l) = clipped else { Issue.record("expected a line, got \(clipped)"); return }
        #expect(l.coordinates.map(\.x) == [0, 5])
        #expect(l.coordinates.map(\.m) == [0, 50])

        let square = Geometry.polygon(Polygon(exterior: [Coordinate(x: 0, y: 0, m: 1), Coordinate(x: 4, y: 0, m: 2),
                                                         Coordinate(x: 4, y: 4, m: 3), Coordinate(x: 0, y: 4, m: 4),
                                                         Coordinate(x: 0, y: 0, m: 1)]))
        let cut = try #require(try context.clip(square, to: Envelope(minX: 2, minY: 2, maxX: 6, maxY: 6)))
        var measures: [Double: Double] = [:]  // keyed by x * 10 + y
        cut.forEachCoordinate { measures[$0.x * 10 + $0.y] = $0.m }
        #expect(measures[44] == 3)                  // an input vertex
        #expect(measures[42] == 2.5)                // on the edge (4,0)-(4,4)
        #expect(measures[24] == 3.5)                // on the edge (4,4)-(0,4)
        #expect(measures[22].map(\.isNaN) == true)  // the box's corner, on no input edge
    }
}
