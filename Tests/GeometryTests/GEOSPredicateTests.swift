import Foundation
import Testing
@testable import Geometry

@Suite("GEOS predicates, plain and prepared")
struct GEOSPredicateTests {
    let context: GEOSContext

    init() throws { context = try GEOSContext() }

    @Test("intersects counts shared boundaries; disjoint shapes do not intersect")
    func intersects() throws {
        #expect(try context.intersects(Shapes.square(0, 0, 2), Shapes.square(1, 1, 2)))
        #expect(try context.intersects(Shapes.square(0, 0, 2), Shapes.square(2, 0, 2)))  // shared edge
        #expect(try !context.intersects(Shapes.square(0, 0, 2), Shapes.square(3, 0, 2)))
        #expect(try context.intersects(Shapes.line((-1, 1), (5, 1)), Shapes.square(0, 0, 2)))
    }

    /// The area is a triangle with vertices (0,0), (8,0), (0,8); tiles are unit squares.
    @Test("prepared predicates on tile squares around a triangle")
    func preparedTiles() throws {
        let triangle = Geometry.polygon(Polygon(exterior: [Coordinate(0, 0), Coordinate(8, 0), Coordinate(0, 8), Coordinate(0, 0)]))
        let area = try context.prepare(triangle)
        let inside = Envelope(minX: 1, minY: 1, maxX: 2, maxY: 2)
        let onEdge = Envelope(minX: 0, minY: 1, maxX: 1, maxY: 2)        // shares the x=0 edge
        let crossing = Envelope(minX: 3, minY: 3, maxX: 5, maxY: 5)      // cut by the hypotenuse
        let cornerTouch = Envelope(minX: 4, minY: 4, maxX: 5, maxY: 5)   // meets it at (4,4) only
        let outside = Envelope(minX: 6, minY: 6, maxX: 7, maxY: 7)
        let beside = Envelope(minX: -1, minY: 1, maxX: 0, maxY: 2)       // outside, edge on x=0

        #expect(try area.containsProperly(inside) && area.covers(inside) && area.contains(inside))
        #expect(try !area.containsProperly(onEdge) && area.covers(onEdge) && area.contains(onEdge))
        #expect(try area.intersects(crossing) && !area.touches(crossing) && !area.covers(crossing))
        #expect(try area.intersects(cornerTouch) && area.touches(cornerTouch))
        #expect(try !area.interiorsIntersect(cornerTouch))
        #expect(try area.interiorsIntersect(crossing) && area.interiorsIntersect(inside))
        #expect(try !area.intersects(outside) && !area.interiorsIntersect(outside))
        #expect(try area.intersects(beside) && !area.interiorsIntersect(beside))

        // The Geometry overloads agree with the Envelope ones.
        for box in [inside, onEdge, crossing, cornerTouch, outside, beside] {
            let g = Geometry.polygon(box.polygon)
            #expect(try area.intersects(g) == area.intersects(box))
            #expect(try area.touches(g) == area.touches(box))
            #expect(try area.covers(g) == area.covers(box))
            #expect(try area.containsProperly(g) == area.containsProperly(box))
        }
    }

    @Test("a prepared area tested against many points agrees with the unprepared test")
    func preparedManyPoints() throws {
        let ring = (0...36).map { i -> Coordinate in
            let angle = Double(i % 36) * .pi / 18
            return Coordinate(10 * cos(angle), 10 * sin(angle))
        }
        let disc = Geometry.polygon(Polygon(exterior: ring))
        let prepared = try context.prepare(disc)
        var inside = 0
        for x in stride(from: -12.0, through: 12, by: 0.5) {
            for y in stride(from: -12.0, through: 12, by: 0.5) {
                let p = Shapes.point(x, y)
                let hit = try prepared.intersects(p)
                #expect(try hit == context.intersects(disc, p))
                if hit { inside += 1 }
            }
        }
        #expect(inside > 1000 && inside < 1300)  // about π·10² / 0.25 = 1257 grid points
    }

    @Test("equals is topological; equalsExact needs the same vertices in the same order")
    func equality() throws {
        let a = Shapes.square(0, 0, 2)
        // The same square starting at another corner and wound the other way.
        let b = Geometry.polygon(Polygon(exterior: [Coordinate(2, 2), Coordinate(2, 0), Coordinate(0, 0),
                                                    Coordinate(0, 2), Coordinate(2, 2)]))
        #expect(try context.equals(a, b))
        #expect(try !context.equalsExact(a, b))
        #expect(try context.equalsExact(context.normalize(a), context.normalize(b)))
        #expect(try context.normalize(a) == context.normalize(b))
        #expect(try !context.equals(a, Shapes.square(0, 0, 2.000001)))
        #expect(try context.equalsExact(a, Shapes.square(0, 0, 2.000001), tolerance: 1e-5))
    }

    @Test("isEmpty and envelope")
    func emptinessAndEnvelope() throws {
        #expect(try context.isEmpty(.polygon(Polygon([]))))
        #expect(try !context.isEmpty(Shapes.point(0, 0)))
        #expect(try context.envelope(.polygon(Polygon([]))) == nil)
        #expect(try context.envelope(Shapes.line((3, -1), (-2, 4))) == Envelope(minX: -2, minY: -1, maxX: 3, maxY: 4))
    }
}
