import Foundation
import Testing
@testable import Geometry

@Suite("GEOS measures, buffer, union and validity against hand-computed values")
struct GEOSMeasureTests {
    let context: GEOSContext

    init() throws { context = try GEOSContext() }

    @Test("area of a square with a hole, length of a 3-4-5 path, perimeter of a square")
    func areaAndLength() throws {
        let holed = Geometry.polygon(Polygon(exterior: Envelope(minX: 0, minY: 0, maxX: 10, maxY: 10).polygon.rings[0],
                                             holes: [Envelope(minX: 2, minY: 2, maxX: 5, maxY: 4).polygon.rings[0]]))
        #expect(try context.area(holed) == 100 - 6)
        #expect(try context.length(Shapes.line((0, 0), (3, 4), (3, 10))) == 11)
        #expect(try context.length(Shapes.square(0, 0, 2.5)) == 10)
        #expect(try context.area(Shapes.line((0, 0), (3, 4))) == 0)
    }

    @Test("distance: point to point, point to segment, overlapping shapes")
    func distance() throws {
        #expect(try context.distance(Shapes.point(0, 0), Shapes.point(3, 4)) == 5)
        #expect(try context.distance(Shapes.point(1, 5), Shapes.line((0, 0), (10, 0))) == 5)
        #expect(try context.distance(Shapes.point(13, 4), Shapes.line((0, 0), (10, 0))) == 5)
        #expect(try context.distance(Shapes.square(0, 0, 2), Shapes.square(1, 1, 2)) == 0)
    }

    /// A point buffered with q segments a quadrant is a regular 4q-gon inscribed in the
    /// circle: area n/2 · r² · sin(2π/n).
    @Test("buffer of a point is the inscribed regular polygon", arguments: [1, 2, 8, 32])
    func pointBuffer(quadrantSegments: Int) throws {
        let r = 3.0, n = Double(4 * quadrantSegments)
        let disc = try context.buffer(Shapes.point(1, 1), distance: r, quadrantSegments: quadrantSegments)
        #expect(disc.type == .polygon)
        let expected = n / 2 * r * r * sin(2 * .pi / n)
        #expect(abs(try context.area(disc) - expected) < 1e-9 * expected)
    }

    @Test("negative buffer of a square shrinks each side by twice the distance")
    func negativeBuffer() throws {
        let shrunk = try context.buffer(Shapes.square(0, 0, 10), distance: -1)
        #expect(abs(try context.area(shrunk) - 64) < 1e-9)
        #expect(try context.isEmpty(context.buffer(Shapes.square(0, 0, 1), distance: -1)))
    }

    @Test("unary union of overlapping and separate squares")
    func union() throws {
        let merged = try context.unaryUnion([Shapes.square(0, 0, 2), Shapes.square(1, 0, 2), Shapes.square(10, 10, 1)])
        #expect(merged.type == .multiPolygon)
        #expect(try context.area(merged) == 3 * 2 + 1)
        let one = try context.unaryUnion([Shapes.square(0, 0, 2), Shapes.square(1, 1, 2)])
        #expect(one.type == .polygon)
        #expect(try context.area(one) == 4 + 4 - 1)
    }

    static let bowTie = Geometry.polygon(Polygon(exterior: [Coordinate(0, 0), Coordinate(10, 10), Coordinate(10, 0),
                                                            Coordinate(0, 10), Coordinate(0, 0)]))

    @Test("a bow-tie is invalid with a self-intersection at its crossing")
    func bowTieValidity() throws {
        let v = try context.validity(Self.bowTie)
        #expect(!v.isValid)
        #expect(v.reason == "Self-intersection at (5.0, 5.0)")
        let square = try context.validity(Shapes.square(0, 0, 1))
        #expect(square.isValid && square.reason == nil)
    }

    @Test("make-valid turns the bow-tie into its two triangles")
    func bowTieMakeValid() throws {
        let fixed = try context.makeValid(Self.bowTie)
        #expect(try context.validity(fixed).isValid)
        #expect(fixed.type == .multiPolygon)
        #expect(try context.area(fixed) == 50)  // two triangles of base 10, height 5
        #expect(try context.makeValid(Shapes.square(0, 0, 1)) == Shapes.square(0, 0, 1))
    }

    @Test("intersection may mix dimensions; clip would not")
    func intersectionMixes() throws {
        let touching = try context.intersection(Shapes.square(0, 0, 2), Shapes.square(2, 0, 2))
        #expect(touching.type == .lineString)
        #expect(try context.clip(Shapes.square(0, 0, 2), to: Shapes.square(2, 0, 2)) == nil)
    }
}
