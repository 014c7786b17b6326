import CGEOS

extension GEOSContext {
    /// The planar area, in squared CRS units (0 for points and lines).
    public func area(_ g: Geometry) throws -> Double {
        let o = try object(g)
        return try measure("area") { GEOSArea_r($0, o.pointer, $1) }
    }

    /// The planar length of lines, or the perimeter of polygons, in CRS units.
    public func length(_ g: Geometry) throws -> Double {
        let o = try object(g)
        return try measure("length") { GEOSLength_r($0, o.pointer, $1) }
    }

    /// The shortest planar distance between the geometries (0 when they intersect).
    public func distance(_ a: Geometry, _ b: Geometry) throws -> Double {
        let ga = try object(a), gb = try object(b)
        return try measure("distance") { GEOSDistance_r($0, ga.pointer, gb.pointer, $1) }
    }

    /// The 2D bounding box as GEOS computes it; nil for an empty geometry.
    public func envelope(_ g: Geometry) throws -> Envelope? {
        let o = try object(g)
        if try predicate("is empty", { GEOSisEmpty_r($0, o.pointer) }) { return nil }
        // Each getter returns 0 on exception.
        return Envelope(minX: try measure("minimum x") { GEOSGeom_getXMin_r($0, o.pointer, $1) },
                        minY: try measure("minimum y") { GEOSGeom_getYMin_r($0, o.pointer, $1) },
                        maxX: try measure("maximum x") { GEOSGeom_getXMax_r($0, o.pointer, $1) },
                        maxY: try measure("maximum y") { GEOSGeom_getYMax_r($0, o.pointer, $1) })
    }
}
