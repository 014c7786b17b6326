/// How `verify` compares geometries: by type, dimensions and vertex sequence, never
/// topologically (a reversed line, a rotated ring start, a changed Z or M are differences);
/// only the blob's encoding (byte order, envelope, header flags) may differ. Reprojected
/// layers allow each ordinate a stated tolerance, the rest must be equal. A clipped layer's
/// geometries are cuts computed by GEOS, whose vertex order and ring starts are GEOS's own
/// (`create` keeps a vertex on a straight edge that a download's cut drops): both sides lose
/// the vertices that lie exactly on the straight edge between their neighbours (with the same
/// Z and M) and are put in GEOS's normal form first; every other vertex, Z and M counts.
import Geometry
import SQLite

enum VerifyGeometry {
    /// True when two geometry column values hold the same geometry: equal decoded values, or,
    /// with a tolerance, the same structure with every x, y and z within it (m exactly).
    /// Values that are not geometry blobs must be identical.
    /// - Parameter normalize: applied to both decoded geometries first (clipped layers).
    static func same(_ a: ExactValue, _ b: ExactValue, tolerance: Double,
                     normalize: ((Geometry) throws -> Geometry)? = nil) -> Bool {
        guard case .blob(let x) = a, case .blob(let y) = b,
              let gx = try? GeoPackageBinary(bytes: x), let gy = try? GeoPackageBinary(bytes: y) else {
            return a == b
        }
        if gx.isEmpty || gy.isEmpty {
            return gx.isEmpty && gy.isEmpty && gx.geometry.type == gy.geometry.type
        }
        guard let normalize else { return gx.geometry.matches(gy.geometry, within: tolerance) }
        guard let nx = try? normalize(gx.geometry), let ny = try? normalize(gy.geometry) else { return a == b }
        return nx.matches(ny, within: tolerance)
    }
}

extension Geometry {
    /// True when both have the same type, parts, dimensions and number of vertices, and the
    /// vertices in order are within `tolerance` of each other in x, y and z (m exactly).
    /// A tolerance of 0 is exact equality.
    func matches(_ other: Geometry, within tolerance: Double) -> Bool {
        if self == other { return true }
        guard tolerance > 0 else { return false }
        // The shape without the positions: type, parts, ring lengths, which ordinates exist.
        let shape = { (c: Coordinate) in Coordinate(x: 0, y: 0, z: c.z.map { _ in 0 }, m: c.m) }
        guard mapCoordinates(shape) == other.mapCoordinates(shape) else { return false }
        var mine: [Coordinate] = []
        forEachCoordinate { mine.append($0) }
        var index = 0
        var close = true
        other.forEachCoordinate { c in
            let d = mine[index]
            index += 1
            let z = (c.z ?? 0) - (d.z ?? 0)
            if !(abs(c.x - d.x) <= tolerance && abs(c.y - d.y) <= tolerance && abs(z) <= tolerance) { close = false }
        }
        return close
    }
}

extension Geometry {
    /// The geometry without the vertices of its lines and rings that lie exactly on the
    /// straight segment between their neighbours, with the neighbours' Z and M: the same
    /// shape, written with fewer vertices. Line ends stay.
    var withoutCollinearVertices: Geometry {
        switch self {
        case .point, .multiPoint: return self
        case .lineString(let l): return .lineString(LineString(Self.dropCollinear(l.coordinates, ring: false)))
        case .polygon(let p): return .polygon(Self.dropCollinear(p))
        case .multiLineString(let m):
            return .multiLineString(MultiLineString(m.lineStrings.map { LineString(Self.dropCollinear($0.coordinates, ring: false)) }))
        case .multiPolygon(let m): return .multiPolygon(MultiPolygon(m.polygons.map(Self.dropCollinear)))
        case .geometryCollection(let c): return .geometryCollection(GeometryCollection(c.geometries.map(\.withoutCollinearVertices)))
        }
    }

    private static func dropCollinear(_ p: Polygon) -> Polygon {
        Polygon(p.rings.map { dropCollinear($0, ring: true) })
    }

    /// A ring is closed (its last vertex repeats the first) and is walked round its start.
    private static func dropCollinear(_ coordinates: [Coordinate], ring: Bool) -> [Coordinate] {
        var points = ring && coordinates.count > 1 && coordinates.first == coordinates.last ? Array(coordinates.dropLast()) : coordinates
        guard points.count > (ring ? 3 : 2) else { return coordinates }
        var index = ring ? 0 : 1
        while index < points.count - (ring ? 0 : 1), points.count > (ring ? 3 : 2) {
            let a = points[(index + points.count - 1) % points.count], b = points[index], c = points[(index + 1) % points.count]
            if isOnSegment(b, a, c) { points.remove(at: index) } else { index += 1 }
        }
        return ring ? points + [points[0]] : points
    }

    /// True when b lies on the segment from a to c (exactly, in x and y) with their Z and M.
    private static func isOnSegment(_ b: Coordinate, _ a: Coordinate, _ c: Coordinate) -> Bool {
        guard a.z == b.z, b.z == c.z, a.m == b.m, b.m == c.m else { return false }
        guard (b.x - a.x) * (c.y - a.y) == (b.y - a.y) * (c.x - a.x) else { return false }
        return min(a.x, c.x) <= b.x && b.x <= max(a.x, c.x) && min(a.y, c.y) <= b.y && b.y <= max(a.y, c.y)
    }
}
