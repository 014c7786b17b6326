import CGEOS

extension GEOSContext {
    /// The points the two geometries share. The result may mix dimensions (a polygon meeting
    /// another along an edge gives a line); ``clip(_:to:)-(_,Geometry)`` keeps only the
    /// input's dimension.
    public func intersection(_ a: Geometry, _ b: Geometry) throws -> Geometry {
        let ga = try object(a), gb = try object(b)
        let result = try owned("intersection") { GEOSIntersection_r($0, ga.pointer, gb.pointer) }  // NULL on exception
        return try value(result).restoringMeasures(from: a)
    }

    /// The union of all parts of `g` with each other (overlapping polygons merge).
    public func unaryUnion(_ g: Geometry) throws -> Geometry {
        let o = try object(g)
        let result = try owned("union") { GEOSUnaryUnion_r($0, o.pointer) }  // NULL on exception
        return try value(result).restoringMeasures(from: g)
    }

    /// The union of several geometries, such as the polygons of an area file.
    public func unaryUnion(_ geometries: [Geometry]) throws -> Geometry {
        try unaryUnion(.geometryCollection(GeometryCollection(geometries)))
    }
}
