import CGEOS

extension GEOSContext {
    /// True when the two geometries share at least one point (boundaries included).
    ///
    /// To test many geometries against one, ``prepare(_:)`` that one first.
    public func intersects(_ a: Geometry, _ b: Geometry) throws -> Bool {
        let ga = try object(a), gb = try object(b)
        return try predicate("intersects") { GEOSIntersects_r($0, ga.pointer, gb.pointer) }
    }

    /// True when the two geometries cover the same points (topological equality: vertex
    /// order, ring start and repeated points do not matter).
    public func equals(_ a: Geometry, _ b: Geometry) throws -> Bool {
        let ga = try object(a), gb = try object(b)
        return try predicate("equals") { GEOSEquals_r($0, ga.pointer, gb.pointer) }
    }

    /// True when the geometries have the same structure and vertices, each pair within
    /// `tolerance`. Normalize both first (``normalize(_:)``) to ignore ring start and order.
    public func equalsExact(_ a: Geometry, _ b: Geometry, tolerance: Double = 0) throws -> Bool {
        let ga = try object(a), gb = try object(b)
        return try predicate("equals exact") { GEOSEqualsExact_r($0, ga.pointer, gb.pointer, tolerance) }
    }

    /// True when GEOS sees no points in the geometry.
    public func isEmpty(_ g: Geometry) throws -> Bool {
        let o = try object(g)
        return try predicate("is empty") { GEOSisEmpty_r($0, o.pointer) }
    }
}
