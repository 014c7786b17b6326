import Geometry

/// The tiles a job takes for an area of interest, and the bounds it writes for them: the one
/// planning path of `tiles`, `estimate` and `create`, so that the three never disagree.
///
/// A box in EPSG:4326 is taken in closed form as the box it says, however wide (a box wider
/// than half the world stays that box; west > east crosses the antimeridian); any other
/// area goes through the quadtree walk on its polygon.
public struct TilePlan: Sendable {
    public let coverage: TileCoverage
    /// West, south, east, north in degrees; across the antimeridian west > east (as MBTiles
    /// `bounds` writes it).
    public let areaBounds: Envelope

    /// - Throws: `GeometryError` from PROJ or GEOS, `CancellationError`.
    public init(area: AreaOfInterest, zooms: ClosedRange<Int>, geos: GEOSContext, proj: PROJContext,
                isCancelled: () -> Bool = { false }) throws {
        coverage = try TileCoverage(area: area, zooms: zooms, geos: geos, proj: proj, isCancelled: isCancelled)
        if area.isLonLat && area.boxes != nil {
            areaBounds = area.envelope
        } else {
            let lonLat = try area.lonLatGeometry(context: proj)
            areaBounds = TileCoverage.lonLatBounds(of: lonLat) ?? area.envelope
        }
    }
}
