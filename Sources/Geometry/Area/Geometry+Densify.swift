extension Geometry {
    /// A copy where no segment is longer than `maxSegmentLength` (in the coordinates' own
    /// units): longer segments get evenly spaced intermediate points, so that a straight
    /// edge in this CRS stays close to its true curve after a transform.
    ///
    /// Follows GDAL's `OGRGeometry::segmentize`: a segment of length `d > max` gets
    /// `floor(d / max)` points; z and m are interpolated when present.
    public func densified(maxSegmentLength: Double) -> Geometry {
        guard maxSegmentLength > 0, maxSegmentLength.isFinite else { return self }
        func line(_ points: [Coordinate]) -> [Coordinate] {
            guard points.count > 1 else { return points }
            var out: [Coordinate] = []
            out.reserveCapacity(points.count)
            for (a, b) in zip(points, points.dropFirst()) {
                out.append(a)
                let dx = b.x - a.x, dy = b.y - a.y
                let squared = dx * dx + dy * dy
                guard squared > maxSegmentLength * maxSegmentLength else { continue }
                let extra = Int((squared / (maxSegmentLength * maxSegmentLength)).squareRoot().rounded(.down))
                let parts = Double(extra + 1)
                for j in 1...extra {  // extra >= 1: the segment is longer than the maximum
                    let t = Double(j) / parts
                    out.append(Coordinate(x: a.x + dx * t, y: a.y + dy * t,
                                          z: a.z.flatMap { za in b.z.map { za + ($0 - za) * t } },
                                          m: a.m.flatMap { ma in b.m.map { ma + ($0 - ma) * t } }))
                }
            }
            out.append(points[points.count - 1])
            return out
        }
        func polygon(_ p: Polygon) -> Polygon { Polygon(p.rings.map(line)) }
        switch self {
        case .point, .multiPoint: return self
        case .lineString(let l): return .lineString(LineString(line(l.coordinates)))
        case .polygon(let p): return .polygon(polygon(p))
        case .multiLineString(let m): return .multiLineString(MultiLineString(m.lineStrings.map { LineString(line($0.coordinates)) }))
        case .multiPolygon(let m): return .multiPolygon(MultiPolygon(m.polygons.map(polygon)))
        case .geometryCollection(let c):
            return .geometryCollection(GeometryCollection(c.geometries.map { $0.densified(maxSegmentLength: maxSegmentLength) }))
        }
    }
}
