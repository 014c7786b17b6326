import Geometry

/// The tiles a job takes for an area of interest, and the bounds it writes for them: the one
/// planning path of `tiles`, `estimate` and `create`, so that the three never disagree.
///
/// A box in EPSG:4326 is counted in closed form as the box it says, however wide (a box
/// wider than half the world stays that box; west > east crosses the antimeridian), at any
/// zoom. Any other area goes through the quadtree walk on its polygon, which stops after the
/// first zoom that takes the count over the limit: deeper zooms cannot fit, and each costs
/// twice the one before; their counts are then estimated (`TileCoverage.approximateCount`).
public struct TilePlan: Sendable {
    /// The zooms asked for.
    public let zooms: ClosedRange<Int>
    /// The tiles of the zooms counted; all of `zooms` when `isComplete`.
    public let coverage: TileCoverage
    /// West, south, east, north in degrees; across the antimeridian west > east (as MBTiles
    /// `bounds` writes it).
    public let areaBounds: Envelope

    /// One zoom's tiles, exact or estimated (zooms a stopped walk did not reach).
    public struct ZoomCount: Sendable, Hashable {
        public var zoom: Int
        public var tiles: Int
        public var exact: Bool
    }

    /// The zooms from the first that fit a limit, and their tiles.
    public struct Fit: Sendable, Hashable {
        public var zooms: ClosedRange<Int>
        public var tiles: Int
    }

    /// - Parameter limit: the most tiles the job may take (`--max-tiles`): the walk stops
    ///   after the first zoom that passes it.
    /// - Parameter progress: the quadtree walk's tiles tested out of those known so far.
    /// - Throws: `GeometryError` from PROJ or GEOS, `CancellationError`.
    public init(area: AreaOfInterest, zooms: ClosedRange<Int>, limit: Int, geos: GEOSContext, proj: PROJContext,
                isCancelled: () -> Bool = { false }, progress: TileProgress = { _, _ in }) throws {
        self.zooms = zooms
        coverage = try TileCoverage(area: area, zooms: zooms, geos: geos, proj: proj, stoppingAbove: limit,
                                    isCancelled: isCancelled, progress: progress)
        if area.isLonLat && area.boxes != nil {
            areaBounds = area.envelope
        } else {
            let lonLat = try area.lonLatGeometry(context: proj)
            areaBounds = TileCoverage.lonLatBounds(of: lonLat) ?? area.envelope
        }
    }

    /// True when every zoom asked for was counted tile by tile (always, within the limit).
    public var isComplete: Bool { coverage.zooms == zooms }

    /// Tiles per zoom, in zoom order.
    public var counts: [ZoomCount] {
        zooms.map { ZoomCount(zoom: $0, tiles: coverage.approximateCount(zoom: $0), exact: coverage.zooms.contains($0)) }
    }

    /// The tiles of every zoom (estimated in part when not `isComplete`).
    public var totalCount: Int { counts.reduce(0) { $0 + $1.tiles } }

    /// The zooms from the first to the deepest whose tiles together number at most `limit`;
    /// nil when even the first zoom has more.
    public func fit(within limit: Int) -> Fit? {
        guard let deepest = coverage.deepestZoom(fittingIn: limit) else { return nil }
        return Fit(zooms: zooms.lowerBound...deepest, tiles: (zooms.lowerBound...deepest).reduce(0) { $0 + coverage.count(zoom: $1) })
    }

    /// Refuses a plan of more than `maxTiles` tiles, before any work, saying how many it has
    /// and the zooms that would fit.
    /// - Throws: `TilePackageError(.invalidInput)` naming `--max-tiles`.
    public func checkTileCount(maxTiles: Int) throws(TilePackageError) {
        let total = totalCount
        guard total > maxTiles else { return }
        var message = "the area needs \(isComplete ? "" : "about ")\(total) tiles at zoom \(zooms.lowerBound)-\(zooms.upperBound), "
            + "more than --max-tiles \(maxTiles)"
        if let fit = fit(within: maxTiles) {
            message += "; zoom \(fit.zooms.lowerBound)-\(fit.zooms.upperBound) fits (\(fit.tiles) tiles), or raise --max-tiles"
        } else {
            message += "; even zoom \(zooms.lowerBound) alone does not fit: raise --max-tiles"
        }
        throw TilePackageError(.invalidInput, message)
    }
}

/// Called as a long step of planning or estimating advances: items done, and the total known
/// so far (it may grow as the work learns its size).
public typealias TileProgress = (_ done: Int, _ total: Int) -> Void

extension TileCoverage {
    /// The most tiles a copy takes unless told otherwise: the cap ArcGIS servers put on one
    /// tile export.
    public static let defaultMaxTiles = 100_000
}
