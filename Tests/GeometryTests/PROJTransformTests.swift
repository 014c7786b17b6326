import Foundation
import Testing
import TestSupport
@testable import Geometry

@Suite("PROJ transforms match cs2cs")
struct PROJTransformTests {
    let context: PROJContext

    init() throws { context = try PROJContext() }

    static let fixtures = ["EPSG4326-EPSG3857.txt", "EPSG4326-EPSG3338.txt", "EPSG4326-EPSG32606.txt", "EPSG2263-EPSG4326.txt"]

    @Test("single coordinates match cs2cs, x = longitude/easting", arguments: fixtures)
    func coordinates(_ file: String) throws {
        let fixture = try CS2CSFixture(file)
        #expect(fixture.pairs.count >= 5)
        let transformer = try Transformer(from: fixture.source, to: fixture.target, context: context)
        let tolerance = fixture.tolerance
        for (input, expected) in fixture.pairs {
            let got = try transformer.transform(input)
            #expect(abs(got.x - expected.x) <= tolerance && abs(got.y - expected.y) <= tolerance,
                    "\(input) gave \(got), cs2cs \(expected)")
        }
    }

    @Test("a batch and a geometry give the same answers as cs2cs", arguments: fixtures)
    func batchAndGeometry(_ file: String) throws {
        let fixture = try CS2CSFixture(file)
        let transformer = try Transformer(from: fixture.source, to: fixture.target, context: context)
        let tolerance = fixture.tolerance
        let batch = try transformer.transform(fixture.pairs.map(\.input))
        let line = try transformer.transform(Geometry.lineString(LineString(fixture.pairs.map(\.input))))
        guard case .lineString(let l) = line else { Issue.record("structure changed: \(line)"); return }
        for (i, expected) in fixture.pairs.map(\.output).enumerated() {
            #expect(abs(batch[i].x - expected.x) <= tolerance && abs(batch[i].y - expected.y) <= tolerance)
            #expect(l.coordinates[i] == batch[i])
        }
    }

    @Test("the inverse direction matches cs2cs run the other way", arguments: fixtures)
    func inverse(_ file: String) throws {
        let forward = try CS2CSFixture(file)
        let fixture = try CS2CSFixture("inverse-" + file.split(separator: "-").reversed().joined(separator: "-")
            .replacingOccurrences(of: ".txt", with: "") + ".txt")
        #expect(fixture.source == forward.target && fixture.target == forward.source)
        #expect(!fixture.pairs.isEmpty)
        let transformer = try Transformer(from: forward.source, to: forward.target, context: context)
        for (input, expected) in fixture.pairs {
            let back = try transformer.transform(input, direction: .inverse)
            #expect(abs(back.x - expected.x) <= fixture.tolerance && abs(back.y - expected.y) <= fixture.tolerance,
                    "\(input) went back to \(back), cs2cs \(expected)")
        }
    }

    @Test("Z is transformed, M and the structure are kept")
    func zAndM() throws {
        let transformer = try Transformer(from: "EPSG:4326", to: "EPSG:3857", context: context)
        let c = try transformer.transform(Coordinate(x: -100, y: 45, z: 12.5, m: 7))
        #expect(c.z == 12.5 && c.m == 7)  // a 2D CRS pair leaves heights alone
        let polygon = Geometry.polygon(Envelope(minX: -100, minY: 40, maxX: -90, maxY: 45).polygon)
        let projected = try transformer.transform(polygon)
        #expect(projected.type == .polygon)
        #expect(abs(try #require(projected.envelope).minX - -11131949.0793273561) < 1e-6)
    }

    @Test("a latitude beyond the pole fails naming the coordinate (cs2cs prints * there)")
    func beyondPoleFails() throws {
        let transformer = try Transformer(from: "EPSG:4326", to: "EPSG:3857", context: context)
        let error = try #require(throws: GeometryError.self) {
            try transformer.transform([Coordinate(10, 45), Coordinate(10, 91)])
        }
        #expect(error.kind == .transformFailed)
        #expect(error.message.contains("(10.0, 91.0)"))
        #expect(error.message.contains("Invalid latitude"))  // PROJ's own message, through the log function
        #expect(error.message.contains("EPSG:4326") && error.message.contains("EPSG:3857"))
        // The transformer is still usable afterwards.
        #expect(try transformer.transform(Coordinate(0, 0)) == Coordinate(0, 0))
    }

    @Test("a densified box has the bounds of cs2cs's densified edges, wider than its corners")
    func densifiedBounds() throws {
        let fixture = try CS2CSFixture("bounds-EPSG3338-EPSG4326.txt")
        let box = try #require(fixture.box)
        #expect(fixture.pairs.count == 88)
        let outputs = fixture.pairs.map(\.output)
        let expected = Envelope(minX: outputs.map(\.x).min()!, minY: outputs.map(\.y).min()!,
                                maxX: outputs.map(\.x).max()!, maxY: outputs.map(\.y).max()!)
        let transformer = try Transformer(from: "EPSG:3338", to: "EPSG:4326", context: context)
        let bounds = try transformer.transform(box)
        for (got, want) in [(bounds.minX, expected.minX), (bounds.minY, expected.minY),
                            (bounds.maxX, expected.maxX), (bounds.maxY, expected.maxY)] {
            #expect(abs(got - want) <= 1e-9, "bounds \(bounds), cs2cs \(expected)")
        }
        // Corners alone miss the northern bulge of the top edge.
        let corners = try transformer.transform([Coordinate(box.minX, box.maxY), Coordinate(box.maxX, box.maxY)])
        #expect(bounds.maxY > corners.map(\.y).max()! + 0.1)
        // And back: the inverse of the geographic bounds covers the box.
        let back = try transformer.transform(bounds, direction: .inverse)
        #expect(back.minX <= box.minX && back.minY <= box.minY && back.maxX >= box.maxX && back.maxY >= box.maxY)
    }

    @Test("Web Mercator bounds of a lon/lat box are its corners' (the projection is monotonic)")
    func mercatorBounds() throws {
        let fixture = try CS2CSFixture("EPSG4326-EPSG3857.txt")
        let transformer = try Transformer(from: "EPSG:4326", to: "EPSG:3857", context: context)
        // The fixture's (-100, 45) and (151.2093, -33.8688) as opposite corners.
        let a = fixture.pairs[1], b = fixture.pairs[2]
        let bounds = try transformer.transform(Envelope(minX: a.input.x, minY: b.input.y, maxX: b.input.x, maxY: a.input.y))
        #expect(abs(bounds.minX - a.output.x) < 1e-6 && abs(bounds.maxY - a.output.y) < 1e-6)
        #expect(abs(bounds.maxX - b.output.x) < 1e-6 && abs(bounds.minY - b.output.y) < 1e-6)
    }
}
