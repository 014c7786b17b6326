extension TileCoverage {
    /// The tiles of `zoom`: counted exactly for the zooms the coverage holds; for a zoom
    /// deeper than a stopped walk reached (`stoppingAbove`), about as many as it would hold,
    /// in closed form, never by walking there.
    ///
    /// The estimate: the descendants of the tiles found inside the area (exact), the rest of
    /// the area's size in tiles of that zoom, and half the tiles on its boundary, which
    /// doubles with each zoom (a boundary tile is about half inside, so its other half is
    /// not in the area's size).
    public func approximateCount(zoom z: Int) -> Int {
        if zooms.contains(z) || boxRanges != nil { return count(zoom: z) }
        guard z > zooms.upperBound, let area = mercatorArea else { return 0 }
        let walked = zooms.upperBound
        func tileArea(_ zoom: Int) -> Double {
            let side = 2 * WebMercator.originShift / Double(1 << zoom)
            return side * side
        }
        let inside = blocks.reduce(0) { $0 + (1 << (2 * (z - $1.z))) }
        let rest = max(0, area - blocks.reduce(0.0) { $0 + tileArea($1.z) }) / tileArea(z)
        let edge = Double(boundary[walked - zooms.lowerBound].count) * Double(1 << (z - walked)) / 2
        return inside + Int((rest + edge).rounded())
    }
}
