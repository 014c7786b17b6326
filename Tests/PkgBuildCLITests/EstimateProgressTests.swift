import Foundation
import PkgBuildCLI
import Testing
import TestSupport

/// `estimate` (and `tiles --dry-run`, the same plan) shows progress on a terminal while it
/// walks a polygon's tiles and while it samples an HTTP source's tile sizes; never in a pipe.
@Suite("estimate's progress")
struct EstimateProgressTests {
    static let polygon = "--area=POLYGON ((-170 50, -130 52, -140 71, -170 50))"

    @Test(.timeLimit(.minutes(2)), arguments: [true, false])
    func planningAndSamplingShowOnATerminalOnly(isTerminal: Bool) throws {
        let server = try TestTileServer()
        let dir = try TemporaryDirectory()
        let source = try dir.copy(testdata: "demo/alaska_source.gpkg")
        let r = CLI.run(["estimate", Self.polygon, "--features", source, "--tiles", server.baseURL + "/{z}/{x}/{y}.png",
                         "--zoom", "0-8", "--json"], isTerminal: isTerminal)
        let stats = try server.stop()
        #expect(r.exitCode == 0, "\(r.stderr)")
        let doc = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        #expect((doc["tiles"] as? [String: Any])?["bytes"] as? Int ?? 0 > 0, "\(r.stdout)")
        let samples = stats.log.count
        #expect(samples > 9, "at most 6 tiles a zoom, all of the first zooms")
        if isTerminal {
            #expect(r.stderr.contains("planning tiles [") && r.stderr.contains("100%"), "\(r.stderr)")
            #expect(r.stderr.contains("sampling tile sizes [") && r.stderr.contains(" \(samples)/\(samples)  100%"), "\(r.stderr)")
        } else {
            #expect(!r.stderr.contains("planning") && !r.stderr.contains("sampling") && !r.stderr.contains("\r"), "\(r.stderr)")
        }
    }

    @Test(.timeLimit(.minutes(2)))
    func tilesDryRunShowsTheSameSteps() throws {
        let server = try TestTileServer()
        let r = CLI.run(["tiles", Self.polygon, "--zoom", "0-6", "--from", server.baseURL + "/{z}/{x}/{y}.png", "--dry-run"],
                        isTerminal: true)
        try server.stop()
        #expect(r.exitCode == 0, "\(r.stderr)")
        #expect(r.stderr.contains("planning tiles [") && r.stderr.contains("sampling tile sizes ["), "\(r.stderr)")
    }
}
