import Foundation
import Testing
import TestSupport
@testable import Geometry

@Suite("GEOS clipping keeps the input's dimension")
struct GEOSClipTests {
    let context: GEOSContext

    init() throws { context = try GEOSContext() }

    @Test("a square clipped by a box is the overlap rectangle")
    func squareByBox() throws {
        let clipped = try #require(try context.clip(Shapes.square(0, 0, 10), to: Envelope(minX: 5, minY: -5, maxX: 20, maxY: 3)))
        #expect(clipped.type == .polygon)
        #expect(try context.area(clipped) == 5 * 3)
        #expect(try context.envelope(clipped) == Envelope(minX: 5, minY: 0, maxX: 10, maxY: 3))
    }

    @Test("a polygon inside the box comes back unchanged; one outside or only touching gives nil")
    func insideOutsideTouching() throws {
        let square = Shapes.square(1, 1, 2)
        #expect(try context.clip(square, to: Envelope(minX: 0, minY: 0, maxX: 5, maxY: 5)) == square)
        #expect(try context.clip(square, to: Envelope(minX: 10, minY: 10, maxX: 11, maxY: 11)) == nil)
        #expect(try context.clip(square, to: Envelope(minX: 3, minY: 0, maxX: 5, maxY: 5)) == nil)  // shares x=3
        #expect(try context.clip(square, to: Envelope(minX: 3, minY: 3, maxX: 5, maxY: 5)) == nil)  // corner
    }

    @Test("a multi polygon stays multi even when one part is left; a polygon cut in two becomes multi")
    func multiKept() throws {
        let two = Geometry.multiPolygon(MultiPolygon([Envelope(minX: 0, minY: 0, maxX: 2, maxY: 2).polygon,
                                                      Envelope(minX: 10, minY: 0, maxX: 12, maxY: 2).polygon]))
        let one = try #require(try context.clip(two, to: Envelope(minX: -1, minY: -1, maxX: 1, maxY: 1)))
        #expect(one.type == .multiPolygon)
        #expect(try context.area(one) == 1)

        // A U shape cut across its arms gives two pieces.
        let u = Geometry.polygon(Polygon(exterior: [Coordinate(0, 0), Coordinate(3, 0), Coordinate(3, 3), Coordinate(2, 3),
                                                    Coordinate(2, 1), Coordinate(1, 1), Coordinate(1, 3), Coordinate(0, 3),
                                                    Coordinate(0, 0)]))
        let arms = try #require(try context.clip(u, to: Envelope(minX: -1, minY: 2, maxX: 4, maxY: 4)))
        guard case .multiPolygon(let m) = arms else { Issue.record("expected two polygons, got \(arms)"); return }
        #expect(m.polygons.count == 2)
        #expect(try context.area(arms) == 2)
    }

    @Test("a polygon clipped to a polygon: a square by a diamond")
    func polygonByPolygon() throws {
        // The diamond |x - 2| + |y - 2| <= 2 covers half of the square [0,4]².
        let diamond = Geometry.polygon(Polygon(exterior: [Coordinate(2, 0), Coordinate(4, 2), Coordinate(2, 4),
                                                          Coordinate(0, 2), Coordinate(2, 0)]))
        let clipped = try #require(try context.clip(Shapes.square(0, 0, 4), to: diamond))
        #expect(clipped.type == .polygon)
        #expect(try context.area(clipped) == 8)
        // Only the quarter x, y >= 2 of the square [2,6]² lies in the diamond: a triangle of area 2.
        let corner = try #require(try context.clip(Shapes.square(2, 2, 4), to: diamond))
        #expect(try context.area(corner) == 2)
        // A square touching the diamond only at its tip (4,2) leaves nothing polygonal.
        #expect(try context.clip(Shapes.square(4, 2, 1), to: diamond) == nil)
    }

    @Test("a line clipped to a polygon stays linear: the point where it touches is dropped")
    func lineByPolygon() throws {
        let square = Shapes.square(0, 0, 4)
        // Crosses the square (2 units inside), leaves it, and comes back to touch the corner (4,4).
        let line = Shapes.line((-1, 1), (5, 1), (6, 3), (4, 4), (6, 6))
        let raw = try context.intersection(line, square)
        #expect(raw.type == .geometryCollection)  // GEOS's answer carries the touching point
        let clipped = try #require(try context.clip(line, to: square))
        #expect(clipped.type == .lineString)
        #expect(try context.length(clipped) == 4)
        #expect(try context.clip(line, to: Envelope(minX: 0, minY: 0, maxX: 4, maxY: 4)) == clipped)
        // A line along the square's edge is not inside it: the result is the edge itself.
        let edge = try #require(try context.clip(Shapes.line((0, 0), (4, 0)), to: square))
        #expect(try context.length(edge) == 4)
        #expect(try context.clip(Shapes.line((5, 5), (6, 6)), to: square) == nil)
    }

    @Test("a collection is clipped member by member")
    func collection() throws {
        let c = Geometry.geometryCollection(GeometryCollection([Shapes.square(0, 0, 4), Shapes.line((-1, 1), (5, 1)),
                                                                Shapes.point(3, 3), Shapes.point(9, 9)]))
        let clipped = try #require(try context.clip(c, to: Envelope(minX: 2, minY: 0, maxX: 10, maxY: 2)))
        guard case .geometryCollection(let parts) = clipped else { Issue.record("expected a collection"); return }
        #expect(parts.geometries.map(\.type) == [.polygon, .lineString])
        #expect(try context.area(parts.geometries[0]) == 4)
        #expect(try context.length(parts.geometries[1]) == 3)
    }

    @Test("a prepared clipper agrees with the plain one and returns covered input unchanged")
    func prepared() throws {
        let area = try context.prepare(Shapes.square(0, 0, 10))
        let inside = Shapes.line((1, 1), (9, 9), (1, 9))
        #expect(try area.clip(inside) == inside)
        #expect(try area.clip(Shapes.square(20, 20, 1)) == nil)
        let crossing = Shapes.square(8, 8, 4)
        #expect(try area.clip(crossing) == context.clip(crossing, to: Shapes.square(0, 0, 10)))
        #expect(try context.area(#require(try area.clip(crossing))) == 4)
    }

    struct GDALClip: CustomStringConvertible {
        var box: Envelope
        var area: Double
        var type: String
        var parts: Int
        var description: String { "\(box.minX) \(box.minY) \(box.maxX) \(box.maxY)" }
    }

    /// Lines of `xmin ymin xmax ymax area type parts` written by record-clip.sh from
    /// `ogr2ogr -clipsrc` and GDAL's GetArea.
    static func gdalClips() throws -> [GDALClip] {
        let text = try String(contentsOf: TestData.fixture("clip/FRA-clip.txt"), encoding: .utf8)
        return try text.split(separator: "\n").map { line in
            let f = line.split(separator: " ").map(String.init)
            guard f.count == 7, let v = Optional(f[0..<5].compactMap(Double.init)), v.count == 5, let n = Int(f[6]) else {
                throw GeometryError(.malformedInput, "bad fixture line \(line)")
            }
            return GDALClip(box: Envelope(minX: v[0], minY: v[1], maxX: v[2], maxY: v[3]), area: v[4], type: f[5], parts: n)
        }
    }

    @Test("France clipped to boxes has the area GDAL's ogr2ogr -clipsrc gives", arguments: try gdalClips())
    func franceMatchesGDAL(_ expected: GDALClip) throws {
        let wkt = try String(contentsOf: TestData.fixture("clip/FRA.wkt"), encoding: .utf8)
        let france = try context.geometry(fromWKT: wkt.trimmingCharacters(in: .whitespacesAndNewlines))
        #expect(france.type == .multiPolygon)
        let clipped = try context.clip(france, to: expected.box)
        guard expected.type != "NONE" else {
            #expect(clipped == nil)
            return
        }
        let result = try #require(clipped)
        // Multi input stays multi here; GDAL 3.6 returns a single POLYGON when one part is left
        // (and warns about the layer type), so compare part counts, not type names.
        guard case .multiPolygon(let m) = result else { Issue.record("expected a multi polygon, got \(result.type)"); return }
        #expect(m.polygons.count == expected.parts)
        let area = try context.area(result)
        #expect(abs(area - expected.area) <= 1e-9 * expected.area, "area \(area), GDAL \(expected.area)")
        #expect(try context.validity(result).isValid)
    }
}
