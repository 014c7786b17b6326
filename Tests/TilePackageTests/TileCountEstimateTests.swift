import Foundation
import Geometry
import Testing
@testable import TilePackage

/// A walk stopped at a tile limit, and the zooms it did not reach estimated in closed form
/// against the same walk taken to the end.
@Suite("Tile counts of a stopped walk")
struct TileCountEstimateTests {
    /// A rough outline of the conterminous United States, in degrees.
    static let conus = """
        POLYGON((-124.7 48.4,-123 46,-124.5 42,-120 34.5,-117 32.5,-111 31.3,-106.5 31.8,-103 29,-97.2 25.9,\
        -97.4 27.8,-94 29.7,-89 30.2,-84 30,-82.5 27,-80.1 25.2,-80 27,-81.4 30.5,-75.5 35.2,-76 37,-74 40.5,\
        -70 41.7,-70.7 43,-67 44.8,-69.2 47.4,-71.5 45,-75 45,-79 43.5,-83 42,-82.5 45.5,-88 48,-95.2 49,\
        -123 49,-124.7 48.4))
        """

    @Test func theWalkStopsAfterTheZoomThatPassesTheLimit() throws {
        let context = try GEOSContext()
        let area = try Geometry(wkt: Self.conus)
        let whole = try TileCoverage(lonLatArea: area, zooms: 2...10, context: context)
        // The tiles of zoom 2...7 are the first to pass 200.
        let upTo = (2...10).map { z in (2...z).reduce(0) { $0 + whole.count(zoom: $1) } }
        let passing = try #require(upTo.firstIndex { $0 > 200 }) + 2
        let stopped = try TileCoverage(lonLatArea: area, zooms: 2...10, context: context, stoppingAbove: 200)
        #expect(stopped.zooms == 2...passing)
        for z in 2...passing { #expect(stopped.count(zoom: z) == whole.count(zoom: z)) }
        #expect(stopped.deepestZoom(fittingIn: 200) == whole.deepestZoom(fittingIn: 200))
    }

    /// Three and four zooms below where the walk stopped, the estimate is within 2% of the count.
    @Test func deeperZoomsAreEstimatedCloseToTheirCount() throws {
        let context = try GEOSContext()
        let area = try Geometry(wkt: Self.conus)
        let whole = try TileCoverage(lonLatArea: area, zooms: 0...11, context: context)
        let stopped = try TileCoverage(lonLatArea: area, zooms: 0...11, context: context, stoppingAbove: 100)
        #expect(stopped.zooms.upperBound == 7)
        for z in 10...11 {
            let exact = Double(whole.count(zoom: z)), estimate = Double(stopped.approximateCount(zoom: z))
            #expect(abs(estimate - exact) / exact < 0.02, "zoom \(z): \(estimate) estimated, \(exact) counted")
        }
    }

    /// A box is counted in closed form at every zoom, however deep and wide, and never stops.
    @Test func aBoxIsCountedWholeAtZoom24() throws {
        let area = try AreaOfInterest(parsing: "-180,-85.0511287798066,180,85.0511287798066", crs: "EPSG:4326",
                                      context: try GEOSContext())
        let plan = try TilePlan(area: area, zooms: 0...24, limit: 100_000, geos: try GEOSContext(), proj: try PROJContext())
        #expect(plan.isComplete)
        // Every tile of every zoom: (4^25 - 1) / 3.
        #expect(plan.totalCount == ((1 << 50) - 1) / 3)
        #expect(plan.fit(within: 100_000) == TilePlan.Fit(zooms: 0...8, tiles: 87_381))
    }
}
