import Geometry

/// How a tile's square relates to an area, as the coverage walk needs to know it.
public enum TileRelation: Sendable, Hashable {
    /// The square's interior does not meet the area's interior (apart, or touching only).
    case outside
    /// The interiors meet but the area does not cover the whole square.
    case partial
    /// The area covers the whole square: every tile below it is in without asking.
    case inside
}

/// An area that can say how tile squares relate to it. Squares are in EPSG:3857 metres.
///
/// The polygon implementation asks GEOS through a prepared geometry; `TileCoverage` walks
/// the quadtree with it, so only tiles along the area's boundary are ever tested.
public protocol TileAreaClassifier {
    /// - Throws: when the underlying geometry library fails.
    func relation(ofMercatorSquare square: Envelope) throws -> TileRelation
}

/// The tiles of a zoom range whose square's interior meets an area's interior.
///
/// Stored as rectangles, not as tiles: for a box, one rectangle per zoom; for a polygon,
/// the tiles the area covers whole are kept as the blocks where the quadtree walk stopped
/// testing, and only the tiles along the boundary are listed one by one. Memory grows
/// with the area's perimeter at the deepest zoom, never with its tile count.
public struct TileCoverage: Sendable {
    public let zooms: ClosedRange<Int>
    /// Per zoom, relative to `zooms.lowerBound`: disjoint rectangles, when computed in
    /// closed form (boxes).
    let boxRanges: [[TileRange]]?
    /// Tiles whose whole square lies inside the area, at the zoom the walk found them.
    let blocks: [TileID]
    /// Per zoom, relative to `zooms.lowerBound`: tiles on the boundary (partly inside).
    let boundary: [[TileID]]
    /// The area's size in EPSG:3857 square metres, when it was walked as a polygon: what the
    /// estimate of zooms deeper than a stopped walk starts from.
    var mercatorArea: Double?

    /// The tiles meeting the interior of the union of boxes given in EPSG:3857 metres.
    /// Boxes of zero width or height have no interior and contribute nothing.
    public init(mercatorBoxes boxes: [Envelope], zooms: ClosedRange<Int>) {
        precondition(zooms.lowerBound >= 0 && zooms.upperBound <= TileID.maxZoom, "zoom outside 0...\(TileID.maxZoom)")
        self.zooms = zooms
        self.blocks = []
        self.boundary = []
        self.boxRanges = zooms.map { z in
            var disjoint: [TileRange] = []
            for box in boxes {
                guard let r = TileCoverage.range(ofMercatorBox: box, zoom: z) else { continue }
                var pieces = [r]
                for taken in disjoint { pieces = pieces.flatMap { $0.subtracting(taken) } }
                disjoint += pieces
            }
            return disjoint
        }
    }

    /// The tiles meeting the interior of the union of boxes given in degrees (west, south,
    /// east, north; `west <= east`: split boxes crossing the antimeridian first).
    /// Latitudes are clamped to the Web Mercator square.
    public init(lonLatBoxes boxes: [Envelope], zooms: ClosedRange<Int>) {
        self.init(mercatorBoxes: boxes.map { b in
            let lo = WebMercator.mercator(lon: b.minX, lat: b.minY)
            let hi = WebMercator.mercator(lon: b.maxX, lat: b.maxY)
            return Envelope(minX: lo.x, minY: lo.y, maxX: hi.x, maxY: hi.y)
        }, zooms: zooms)
    }

    /// Walks the quadtree from zoom 0, asking `classifier` about each tile whose parent the
    /// area only partly covers; a tile the area covers whole brings in all its descendants
    /// untested.
    /// - Parameters:
    ///   - stoppingAbove: when given, the walk ends after the first zoom at which the tiles
    ///     counted so far are more than this, and the coverage holds the zooms walked only
    ///     (deeper ones cannot fit the limit, and walking them costs twice as much each).
    ///   - isCancelled: polled every `progressInterval` tiles tested, so a long walk can be
    ///     stopped.
    ///   - progress: tiles tested so far out of those known to be tested (the walk learns
    ///     each zoom's count as it reaches it), every `progressInterval` tiles and at the end.
    /// - Throws: what the classifier throws, or `CancellationError`.
    public init(classifier: some TileAreaClassifier, zooms: ClosedRange<Int>, stoppingAbove limit: Int? = nil,
                isCancelled: () -> Bool = { false }, progress: TileProgress = { _, _ in }) throws {
        precondition(zooms.lowerBound >= 0 && zooms.upperBound <= TileID.maxZoom, "zoom outside 0...\(TileID.maxZoom)")
        self.boxRanges = nil
        var blocks: [TileID] = []
        var boundary: [[TileID]] = []
        var frontier = [TileID(z: 0, x: 0, y: 0)]
        var deepest = zooms.upperBound
        var total = 0
        var tested = 0
        for z in 0...zooms.upperBound {
            if isCancelled() { throw CancellationError() }
            var next: [TileID] = []
            var edge: [TileID] = []
            for (index, tile) in frontier.enumerated() {
                if index % Self.progressInterval == 0 && index > 0 {
                    if isCancelled() { throw CancellationError() }
                    progress(tested, tested + frontier.count - index)
                }
                tested += 1
                switch try classifier.relation(ofMercatorSquare: WebMercator.mercatorBounds(of: tile)) {
                case .outside:
                    continue
                case .inside:
                    blocks.append(tile)
                case .partial:
                    if z >= zooms.lowerBound { edge.append(tile) }
                    if z < zooms.upperBound { next += tile.children }
                }
            }
            frontier = next
            guard z >= zooms.lowerBound else { continue }
            boundary.append(edge.sorted { ($0.y, $0.x) < ($1.y, $1.x) })
            total += edge.count + blocks.reduce(0) { $0 + (1 << (2 * (z - $1.z))) }
            if let limit, total > limit {
                deepest = z
                break
            }
        }
        progress(tested, tested)
        self.zooms = zooms.lowerBound...deepest
        self.blocks = blocks
        self.boundary = boundary
    }

    /// Tiles tested between two progress reports (and cancellation checks) of the walk: each
    /// test is a GEOS predicate of some microseconds.
    static let progressInterval = 256

    /// Disjoint rectangles that together hold exactly the zoom's tiles, sorted by their
    /// first row then column. Boundary tiles next to each other in a row are joined.
    public func ranges(zoom z: Int) -> [TileRange] {
        guard zooms.contains(z) else { return [] }
        if let boxRanges { return boxRanges[z - zooms.lowerBound] }
        var result: [TileRange] = blocks.filter { $0.z <= z }.map { TileRange(descendantsOf: $0, atZoom: z) }
        var run: TileRange?
        for t in boundary[z - zooms.lowerBound] {
            if var r = run, r.minY == t.y, r.maxX + 1 == t.x {
                r.maxX = t.x
                run = r
            } else {
                if let r = run { result.append(r) }
                run = TileRange(z: z, minX: t.x, maxX: t.x, minY: t.y, maxY: t.y)
            }
        }
        if let r = run { result.append(r) }
        return result.sorted { ($0.minY, $0.minX) < ($1.minY, $1.minX) }
    }

    /// The number of tiles at `zoom`.
    public func count(zoom z: Int) -> Int {
        guard zooms.contains(z) else { return 0 }
        if let boxRanges { return boxRanges[z - zooms.lowerBound].reduce(0) { $0 + $1.count } }
        return boundary[z - zooms.lowerBound].count
            + blocks.reduce(0) { $0 + ($1.z <= z ? 1 << (2 * (z - $1.z)) : 0) }
    }

    /// Tiles per zoom, in zoom order.
    public var counts: [(zoom: Int, count: Int)] { zooms.map { ($0, count(zoom: $0)) } }

    /// The number of tiles over all zooms.
    public var totalCount: Int { zooms.reduce(0) { $0 + count(zoom: $1) } }

    /// The deepest zoom such that the tiles from `zooms.lowerBound` to it number at most
    /// `limit`; nil when even the first zoom has more.
    public func deepestZoom(fittingIn limit: Int) -> Int? {
        var total = 0
        var deepest: Int?
        for z in zooms {
            total += count(zoom: z)
            if total > limit { break }
            deepest = z
        }
        return deepest
    }

    /// True when every zoom is a handful of rectangles computed in closed form (a box
    /// area): copies can then select by row and column ranges.
    public var isRectangular: Bool { boxRanges != nil }

    /// Calls `body` with every tile of `zoom`, rectangle by rectangle, without building a list.
    public func forEachTile(zoom: Int, _ body: (TileID) throws -> Void) rethrows {
        for r in ranges(zoom: zoom) { try r.forEach(body) }
    }

    /// Calls `body` with every tile of every zoom, zoom by zoom.
    public func forEachTile(_ body: (TileID) throws -> Void) rethrows {
        for z in zooms { try forEachTile(zoom: z, body) }
    }

    /// The rectangle of tiles at `zoom` whose interiors meet the box's interior; nil when
    /// none do (a box of no width or height, or one outside the world).
    static func range(ofMercatorBox box: Envelope, zoom: Int) -> TileRange? {
        guard [box.minX, box.minY, box.maxX, box.maxY].allSatisfy(\.isFinite),
              box.maxX > box.minX, box.maxY > box.minY else { return nil }
        let n = Double(1 << zoom)
        let world = 2 * WebMercator.originShift
        // Clamped a little outside the world so the Int conversions below cannot overflow.
        func column(_ mx: Double) -> Double { max(-1, min(n + 1, (mx + WebMercator.originShift) / world * n)) }
        func row(_ my: Double) -> Double { max(-1, min(n + 1, (WebMercator.originShift - my) / world * n)) }
        // Edges closer than this to a tile edge are on it: degrees -> metres -> tiles
        // rounds a tile's own edge by a few ulps, and must not pull in its neighbour.
        let eps = 1e-7
        let last = (1 << zoom) - 1
        let minX = max(0, Int((column(box.minX) + eps).rounded(.down)))
        let maxX = min(last, Int((column(box.maxX) - eps).rounded(.up)) - 1)
        let minY = max(0, Int((row(box.maxY) + eps).rounded(.down)))
        let maxY = min(last, Int((row(box.minY) - eps).rounded(.up)) - 1)
        let r = TileRange(z: zoom, minX: minX, maxX: maxX, minY: minY, maxY: maxY)
        return r.isEmpty ? nil : r
    }
}
