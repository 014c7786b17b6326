import CGEOS

extension GEOSContext {
    /// The area within `distance` of the geometry (a negative distance shrinks polygons).
    /// - Parameters:
    ///   - distance: in CRS units.
    ///   - quadrantSegments: segments used to approximate a quarter circle at round joins
    ///     and caps; more is smoother and slower.
    /// - Returns: a polygon or multi polygon; an empty polygon when a negative distance
    ///   erases everything.
    public func buffer(_ g: Geometry, distance: Double, quadrantSegments: Int = 8) throws -> Geometry {
        let o = try object(g)
        let segments = Int32(clamping: quadrantSegments)
        return try value(owned("buffer") { GEOSBuffer_r($0, o.pointer, distance, segments) })  // NULL on exception
    }
}
