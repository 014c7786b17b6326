import CGEOS

extension GEOSContext {
    /// The geometry in GEOS's normal form: rings start at their lowest vertex, exterior
    /// rings clockwise and holes counter-clockwise, parts of collections sorted. Two
    /// geometries that are the same shape written differently normalize to equal values.
    public func normalize(_ g: Geometry) throws -> Geometry {
        let o = try object(g)
        resetMessage()
        guard GEOSNormalize_r(handle, o.pointer) == 0 else { throw failure("normalize") }  // returns -1 on exception
        return try value(o).restoringMeasures(from: g)
    }
}
