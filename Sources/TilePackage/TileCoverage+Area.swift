import Geometry

extension TileCoverage {
    /// The longest edge, in degrees, a lon/lat area keeps before it goes to Web Mercator:
    /// about a kilometre, far below a tile at any zoom where the curve would show.
    public static let densifyDegrees = 0.01

    /// The coverage of a polygonal area given in lon/lat degrees (EPSG:4326, x = longitude).
    /// An area crossing the antimeridian is split there first (`splitAtAntimeridian`). Its
    /// edges are straight in degrees, so they are densified before the exact spherical
    /// Mercator formulas take them to metres; then the quadtree walk asks GEOS.
    /// - Throws: `GeometryError` from GEOS, `CancellationError` when `isCancelled` says so.
    /// - Parameter stoppingAbove: as the walk takes it (`init(classifier:...)`).
    public init(lonLatArea area: Geometry, zooms: ClosedRange<Int>, context: GEOSContext,
                stoppingAbove limit: Int? = nil, isCancelled: () -> Bool = { false },
                progress: TileProgress = { _, _ in }) throws {
        let split = try TileCoverage.splitAtAntimeridian(area, context: context)
        let mercator = split.densified(maxSegmentLength: TileCoverage.densifyDegrees).mapCoordinates { c in
            let m = WebMercator.mercator(lon: c.x, lat: c.y)
            return Coordinate(m.x, m.y)
        }
        try self.init(classifier: PreparedAreaClassifier(mercatorArea: mercator, context: context),
                      zooms: zooms, stoppingAbove: limit, isCancelled: isCancelled, progress: progress)
        mercatorArea = try context.area(mercator)
    }
}

extension TileCoverage {
    /// The coverage of an area of interest: boxes in EPSG:4326 in closed form (an
    /// antimeridian box as its two halves), anything else through the quadtree walk on the
    /// area taken to degrees (densified in its own CRS) and then to Web Mercator.
    /// - Throws: `GeometryError` from PROJ or GEOS, `CancellationError`.
    /// - Parameter stoppingAbove: for the walk (a box is counted whole in closed form).
    /// - Parameter progress: the walk's (a box reports nothing: it takes no time).
    public init(area: AreaOfInterest, zooms: ClosedRange<Int>, geos: GEOSContext, proj: PROJContext,
                stoppingAbove limit: Int? = nil, isCancelled: () -> Bool = { false },
                progress: TileProgress = { _, _ in }) throws {
        if area.isLonLat, let boxes = area.boxes {
            self.init(lonLatBoxes: boxes, zooms: zooms)
        } else {
            try self.init(lonLatArea: try area.lonLatGeometry(context: proj), zooms: zooms, context: geos,
                          stoppingAbove: limit, isCancelled: isCancelled, progress: progress)
        }
    }
}
