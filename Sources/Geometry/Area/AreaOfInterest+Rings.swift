import Foundation

extension AreaOfInterest {
    /// Refuses rings GEOS cannot build, saying which ring and why: GEOS's own words
    /// ("IllegalArgumentException: Points of LinearRing do not form a closed linestring") name
    /// neither the input nor the ring.
    /// - Throws: `GeometryError(.invalidGeometry)` beginning with `name`.
    static func checkRings(_ polygons: [Polygon], named name: String) throws {
        for (p, polygon) in polygons.enumerated() {
            for (r, ring) in polygon.rings.enumerated() where !ring.isEmpty {
                let which = (r == 0 ? "the outer ring" : "hole \(r)") + (polygons.count > 1 ? " of polygon \(p + 1)" : "")
                let first = ring[0], last = ring[ring.count - 1]
                guard first.x == last.x && first.y == last.y else {
                    throw GeometryError(.invalidGeometry, "\(name): \(which) is not closed: it starts at "
                        + "\(text(first)) and ends at \(text(last)); a ring ends where it starts")
                }
                guard ring.count >= 4 else {
                    throw GeometryError(.invalidGeometry, "\(name): \(which) has \(ring.count) point"
                        + "\(ring.count == 1 ? "" : "s"); a ring needs at least 4, the last repeating the first")
                }
            }
        }
    }

    private static func text(_ c: Coordinate) -> String {
        String(format: "%.10g %.10g", c.x, c.y)
    }
}
