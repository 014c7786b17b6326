// GEOS 3.11 keeps X, Y and Z but drops M. Operations that build a new geometry from an input
// with M (clip, intersection, union, make-valid, normalize) give it back here:
// - a vertex at the same x, y as an input vertex takes that vertex's M;
// - a vertex GEOS made on an input segment (where a clip cuts it) takes M interpolated
//   along that segment;
// - any other new vertex (a corner of the clip box) gets NaN, the "no value" ISO WKB allows.

extension Geometry {
    /// This geometry with M taken from `input`'s vertices; unchanged when `input` has no M.
    func restoringMeasures(from input: Geometry) -> Geometry {
        guard input.dimension.hasM else { return self }
        let index = MeasureIndex(input)
        return mapCoordinates { c in
            var c = c
            c.m = index.measure(atX: c.x, y: c.y)
            return c
        }
    }
}

private struct MeasureIndex {
    private struct Key: Hashable {
        let x: UInt64, y: UInt64
        // Adding 0.0 turns -0.0 into 0.0, so both find the same vertex.
        init(_ x: Double, _ y: Double) { self.x = (x + 0.0).bitPattern; self.y = (y + 0.0).bitPattern }
    }

    private var vertices: [Key: Double] = [:]
    private var segments: [(Coordinate, Coordinate)] = []

    init(_ geometry: Geometry) {
        func add(_ run: [Coordinate]) {
            for c in run { if let m = c.m, vertices[Key(c.x, c.y)] == nil { vertices[Key(c.x, c.y)] = m } }
            for (a, b) in zip(run, run.dropFirst()) where a.m != nil && b.m != nil { segments.append((a, b)) }
        }
        func walk(_ g: Geometry) {
            switch g {
            case .point(let p): add(p.coordinate.map { [$0] } ?? [])
            case .lineString(let l): add(l.coordinates)
            case .polygon(let p): p.rings.forEach(add)
            case .multiPoint(let m): m.points.forEach { add($0.coordinate.map { [$0] } ?? []) }
            case .multiLineString(let m): m.lineStrings.forEach { add($0.coordinates) }
            case .multiPolygon(let m): m.polygons.forEach { $0.rings.forEach(add) }
            case .geometryCollection(let c): c.geometries.forEach(walk)
            }
        }
        walk(geometry)
    }

    func measure(atX x: Double, y: Double) -> Double {
        if let m = vertices[Key(x, y)] { return m }
        // A vertex made by the operation: find the input segment it lies on.
        var best: (distance: Double, m: Double)?
        for (a, b) in segments {
            let dx = b.x - a.x, dy = b.y - a.y
            let lengthSquared = dx * dx + dy * dy
            guard lengthSquared > 0 else { continue }
            let t = min(1, max(0, ((x - a.x) * dx + (y - a.y) * dy) / lengthSquared))
            let px = a.x + t * dx, py = a.y + t * dy
            let distance = ((x - px) * (x - px) + (y - py) * (y - py)).squareRoot()
            let tolerance = 1e-9 * max(1, abs(x), abs(y), lengthSquared.squareRoot())
            if distance <= tolerance, best == nil || distance < best!.distance {
                best = (distance, a.m! + t * (b.m! - a.m!))
            }
        }
        return best?.m ?? .nan
    }
}
