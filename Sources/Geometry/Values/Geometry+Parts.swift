/// Parts of a geometry that several modules take apart the same way.
extension Geometry {
    /// A single point, line or polygon wrapped in its Multi type; others unchanged.
    public var promotedToMulti: Geometry {
        switch self {
        case .point(let p): return .multiPoint(MultiPoint([p]))
        case .lineString(let l): return .multiLineString(MultiLineString([l]))
        case .polygon(let p): return .multiPolygon(MultiPolygon([p]))
        default: return self
        }
    }

    /// The non-empty polygons, those inside collections included; lines and points (such as
    /// repairing a degenerate polygon leaves) are left out.
    public var polygonParts: [Polygon] {
        switch self {
        case .polygon(let p): return p.isEmpty ? [] : [p]
        case .multiPolygon(let m): return m.polygons.filter { !$0.isEmpty }
        case .geometryCollection(let c): return c.geometries.flatMap(\.polygonParts)
        default: return []
        }
    }
}
