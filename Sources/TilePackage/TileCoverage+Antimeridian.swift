import Geometry

extension TileCoverage {
    /// An area in lon/lat degrees as pieces that stay within -180...180, split at the
    /// antimeridian, so that Web Mercator (which wraps there) takes each piece where it is.
    ///
    /// An edge whose ends lie more than 180 degrees of longitude apart is taken to cross the
    /// antimeridian the short way (as GeoJSON writers, GDAL's `-wrapdateline` and most
    /// users mean it, never a line round the back of the world); a ring is unwrapped so that
    /// no edge jumps, and longitudes beyond +-180, given or unwrapped, are cut there and
    /// brought back by 360 degrees. An area that crosses nothing is returned unchanged.
    /// - Throws: `GeometryError` from GEOS.
    public static func splitAtAntimeridian(_ area: Geometry, context: GEOSContext) throws -> Geometry {
        let unwrapped = area.polygonParts.map(unwrapped)
        let extents = unwrapped.compactMap { Geometry.polygon($0).envelope }
        guard let west = extents.map(\.minX).min(), let east = extents.map(\.maxX).max(),
              west < -180 || east > 180 else { return area }
        let south = extents.map(\.minY).min() ?? -90, north = extents.map(\.maxY).max() ?? 90
        var pieces: [Polygon] = []
        let whole = Geometry.multiPolygon(MultiPolygon(unwrapped))
        // Each window of 360 degrees the area reaches, brought back onto -180...180.
        let first = Int(((west + 180) / 360).rounded(.down)), last = Int(((east + 180) / 360).rounded(.up)) - 1
        for k in first...max(first, last) {
            let shift = Double(k) * 360
            let window = Envelope(minX: -180 + shift, minY: south, maxX: 180 + shift, maxY: north)
            guard let part = try context.clip(whole, to: window) else { continue }
            let back = part.mapCoordinates { Coordinate($0.x - shift, $0.y) }
            pieces += back.polygonParts
        }
        return pieces.count == 1 ? .polygon(pieces[0]) : .multiPolygon(MultiPolygon(pieces))
    }

    /// The area's bounding box in degrees; for an area crossing the antimeridian, west is
    /// greater than east (as MBTiles `bounds` and the `--area` box write it).
    ///
    /// Longitudes are a circle: the box is the shortest stretch of it that holds every part
    /// (each part unwrapped as `splitAtAntimeridian` does), so that an area already split at
    /// the line, or islands on both sides of it, are bounded across it.
    public static func lonLatBounds(of area: Geometry) -> Envelope? {
        let extents = area.polygonParts.map(unwrapped).compactMap { Geometry.polygon($0).envelope }
        guard let first = extents.first else { return area.envelope }
        let south = extents.map(\.minY).min() ?? first.minY, north = extents.map(\.maxY).max() ?? first.maxY
        // Each part as a stretch [start, start + width) with start in -180..<180.
        let stretches = extents.map { e -> (start: Double, width: Double) in
            let w = (e.minX + 180).truncatingRemainder(dividingBy: 360)
            return ((w < 0 ? w + 360 : w) - 180, min(360, e.maxX - e.minX))
        }.sorted { $0.start < $1.start }
        // Walk the stretches west to east, twice round, finding the widest gap between them.
        var reach = stretches[0].start + stretches[0].width
        var widest: (from: Double, to: Double)?
        for next in stretches.dropFirst() + stretches.map({ ($0.start + 360, $0.width) }) {
            if next.start > reach, next.start - reach > (widest.map { $0.to - $0.from } ?? 0) {
                widest = (reach, next.start)
            }
            reach = max(reach, next.start + next.width)
        }
        guard let gap = widest else {
            return Envelope(minX: -180, minY: south, maxX: 180, maxY: north)
        }
        func wrapped(_ lon: Double) -> Double {
            let w = (lon + 180).truncatingRemainder(dividingBy: 360)
            return (w < 0 ? w + 360 : w) - 180
        }
        // East of the area is where the gap begins; an east edge on the line is +180.
        let east = wrapped(gap.from)
        return Envelope(minX: wrapped(gap.to), minY: south, maxX: east == -180 ? 180 : east, maxY: north)
    }

    /// The polygon with every ring made continuous in longitude (no edge longer than 180
    /// degrees east-west), its holes moved by whole turns next to its exterior. A ring that
    /// would not close again (one around a pole) is left as it is.
    private static func unwrapped(_ polygon: Polygon) -> Polygon {
        var rings = polygon.rings.map(unwrappedRing)
        guard rings.count > 1, let exterior = Geometry.polygon(Polygon([rings[0]])).envelope else { return Polygon(rings) }
        let centre = (exterior.minX + exterior.maxX) / 2
        for i in rings.indices.dropFirst() {
            guard let start = rings[i].first?.x else { continue }
            let turns = ((centre - start) / 360).rounded()
            if turns != 0 { rings[i] = rings[i].map { Coordinate($0.x + turns * 360, $0.y) } }
        }
        return Polygon(rings)
    }

    private static func unwrappedRing(_ ring: [Coordinate]) -> [Coordinate] {
        guard ring.count > 1, zip(ring, ring.dropFirst()).contains(where: { abs($1.x - $0.x) > 180 }) else { return ring }
        var out = [ring[0]]
        var offset = 0.0
        for (a, b) in zip(ring, ring.dropFirst()) {
            let step = b.x - a.x
            if step > 180 { offset -= 360 } else if step < -180 { offset += 360 }
            out.append(Coordinate(b.x + offset, b.y))
        }
        guard let closing = out.last, closing.x == out[0].x else { return ring }
        return out
    }
}
