import CGEOS

// Clipping keeps the input's dimension: a clipped polygon stays polygonal, a clipped line
// stays linear. GEOS's intersection may also return lower-dimension slivers (a line where a
// polygon only touches the clip edge, a point where a line touches it); those are dropped.
//
// Result type: a single part for a Point/LineString/Polygon input that yields one part;
// Multi* when the input was Multi* or the result has several parts (GDAL's -clipsrc promotes
// to Multi* the same way); a GeometryCollection input is clipped member by member. Nothing
// of the input's dimension left gives nil.

extension GEOSContext {
    /// The part of `g` inside the box, with the dimension of `g` kept.
    ///
    /// Uses the same robust intersection as clipping to a polygon (as GDAL's `-clipsrc`
    /// does), not GEOS's faster rectangle clipper, which may return invalid polygons.
    /// - Returns: nil when nothing of `g`'s dimension lies inside the box.
    public func clip(_ g: Geometry, to box: Envelope) throws -> Geometry? {
        guard let extent = g.envelope, extent.intersects(box) else { return nil }
        if box.contains(x: extent.minX, y: extent.minY) && box.contains(x: extent.maxX, y: extent.maxY) {
            return g  // entirely inside: keep the input exactly, M included
        }
        let rectangle = try owned("creating a rectangle") {
            GEOSGeom_createRectangle_r($0, box.minX, box.minY, box.maxX, box.maxY)  // NULL on exception
        }
        return try clip(g) { try self.intersection(of: $0, with: rectangle) }
    }

    /// The part of `g` inside `polygon`, with the dimension of `g` kept.
    /// - Returns: nil when nothing of `g`'s dimension lies inside.
    public func clip(_ g: Geometry, to polygon: Geometry) throws -> Geometry? {
        let mask = try object(polygon)
        return try clip(g) { try self.intersection(of: $0, with: mask) }
    }

    func intersection(of g: Geometry, with mask: GEOSObject) throws -> Geometry {
        let o = try object(g)
        let result = try owned("intersection") { GEOSIntersection_r($0, o.pointer, mask.pointer) }  // NULL on exception
        return try value(result).restoringMeasures(from: g)
    }

    /// Clips with `intersect`, member by member for collections, and keeps `g`'s dimension.
    func clip(_ g: Geometry, _ intersect: (Geometry) throws -> Geometry) throws -> Geometry? {
        if case .geometryCollection(let c) = g {
            let kept = try c.geometries.compactMap { try clip($0, intersect) }
            return kept.isEmpty ? nil : .geometryCollection(GeometryCollection(kept))
        }
        guard !g.isEmpty, let dimension = g.type.topologicalDimension else { return nil }
        let parts = try intersect(g).atomicParts.filter { !$0.isEmpty && $0.type.topologicalDimension == dimension }
        guard !parts.isEmpty else { return nil }
        let isMulti = g.type == .multiPoint || g.type == .multiLineString || g.type == .multiPolygon
        if parts.count == 1 && !isMulti { return parts[0] }
        switch dimension {
        case 0: return .multiPoint(MultiPoint(parts.compactMap { if case .point(let p) = $0 { p } else { nil } }))
        case 1: return .multiLineString(MultiLineString(parts.compactMap { if case .lineString(let l) = $0 { l } else { nil } }))
        default: return .multiPolygon(MultiPolygon(parts.compactMap { if case .polygon(let p) = $0 { p } else { nil } }))
        }
    }
}

extension PreparedGeometry {
    /// ``GEOSContext/clip(_:to:)-(_,Geometry)`` against the prepared geometry, which skips
    /// the overlay for geometries entirely inside (returned unchanged) or entirely outside.
    public func clip(_ g: Geometry) throws -> Geometry? {
        if try g.isEmpty || !intersects(g) { return nil }
        if try covers(g) { return g }
        return try context.clip(g) { try self.context.intersection(of: $0, with: self.base) }
    }
}

extension Geometry {
    /// The points, line strings and polygons this geometry is made of, collections flattened.
    var atomicParts: [Geometry] {
        switch self {
        case .point, .lineString, .polygon: return [self]
        case .multiPoint(let m): return m.points.map { .point($0) }
        case .multiLineString(let m): return m.lineStrings.map { .lineString($0) }
        case .multiPolygon(let m): return m.polygons.map { .polygon($0) }
        case .geometryCollection(let c): return c.geometries.flatMap(\.atomicParts)
        }
    }
}
