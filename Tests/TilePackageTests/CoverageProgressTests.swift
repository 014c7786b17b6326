import Geometry
import Testing
@testable import TilePackage

/// The quadtree walk says how far it is (the planner's progress on a terminal) and can be
/// stopped inside a zoom, not only between zooms.
@Suite struct CoverageProgressTests {
    /// A box in EPSG:3857 metres, counting the squares it is asked about.
    final class CountingBox: TileAreaClassifier {
        let box: Envelope
        var asked = 0
        init(_ box: Envelope) { self.box = box }

        func relation(ofMercatorSquare s: Envelope) throws -> TileRelation {
            asked += 1
            if s.maxX <= box.minX || s.minX >= box.maxX || s.maxY <= box.minY || s.minY >= box.maxY { return .outside }
            return s.minX >= box.minX && s.maxX <= box.maxX && s.minY >= box.minY && s.maxY <= box.maxY ? .inside : .partial
        }
    }

    /// A box whose edges cross the tiles of every zoom: about 4 * 2^z tiles tested at zoom z.
    static let box = Envelope(minX: -1_234_567.8, minY: -2_345_678.9, maxX: 3_456_789.1, maxY: 4_567_890.2)

    @Test func theWalkReportsTheTilesItTestedUpToTheLast() throws {
        let classifier = CountingBox(Self.box)
        var reports: [(done: Int, total: Int)] = []
        let coverage = try TileCoverage(classifier: classifier, zooms: 0...10, progress: { reports.append(($0, $1)) })
        #expect(coverage.zooms == 0...10)
        let last = try #require(reports.last)
        #expect(last.done == classifier.asked && last.total == classifier.asked)
        // Reports within the zooms, not only at the end, and never going back.
        #expect(reports.count > classifier.asked / TileCoverage.progressInterval / 2, "\(reports.count) of \(classifier.asked)")
        #expect(zip(reports, reports.dropFirst()).allSatisfy { $0.done <= $1.done })
        #expect(reports.allSatisfy { $0.done <= $0.total })
    }

    @Test func theWalkStopsInsideAZoomWhenCancelled() throws {
        let whole = CountingBox(Self.box)
        _ = try TileCoverage(classifier: whole, zooms: 0...12)
        let stopped = CountingBox(Self.box)
        #expect(throws: CancellationError.self) {
            _ = try TileCoverage(classifier: stopped, zooms: 0...12, isCancelled: { stopped.asked > 2_000 })
        }
        // Stopped within a report interval of the moment, not at the end of zoom 12's thousands.
        #expect(stopped.asked <= 2_000 + TileCoverage.progressInterval, "\(stopped.asked) of \(whole.asked)")
    }
}
