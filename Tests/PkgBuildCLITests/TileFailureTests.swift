import Foundation
import PkgBuildCLI
import Testing
import TestSupport

/// Tiles whose retries run out: `create` keeps the tiles so far where its message says and a
/// re-run resumes from them; `tiles --skip-failed` finishes without them and lists them.
@Suite("tiles that cannot be fetched")
struct TileFailureTests {
    /// 6 answers of 500 exhaust 1 try + 5 retries; the 7th request (a re-run) succeeds.
    static let failing = TileServerScript.Rule(match: "^/(2/1/1|3/5/2)\\.png$", responses: Array(repeating: "500", count: 6))

    func sqlite(_ path: String, _ sql: String) throws -> String {
        let r = try runProcess("sqlite3", [path, sql])
        #expect(r.status == 0, "\(r.stderr)")
        return r.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test(.timeLimit(.minutes(2)))
    func createKeepsTheTilesSoFarAndResumes() throws {
        let server = try TestTileServer(script: TileServerScript(rules: [Self.failing]))
        let dir = try TemporaryDirectory()
        let source = try dir.copy(testdata: "demo/alaska_source.gpkg")
        let package = dir.path("world.pkg")
        let argv = ["create", "--area=-180,-85,180,85", "--features", source, "--tiles", server.baseURL + "/{z}/{x}/{y}.png",
                    "--zoom", "0-3", "-o", package]
        let replicas = try sqlite(source, "SELECT count(*) FROM pkgbuild_replicas")
        let first = CLI.run(argv)
        #expect(first.exitCode == 1)
        let work = package + ".partial/basemap.mbtiles.partial"
        #expect(first.stderr.contains("2 of 85 tiles could not be fetched"), "\(first.stderr)")
        #expect(first.stderr.contains("the tiles so far are kept in \(work): run the same command again to resume"),
                "\(first.stderr)")
        #expect(FileManager.default.fileExists(atPath: work), "the message names a file that is not there")
        #expect(try sqlite(work, "SELECT count(*) FROM map") == "83")
        #expect(!FileManager.default.fileExists(atPath: package))
        // Nothing registered for a package that does not exist.
        #expect(try sqlite(source, "SELECT count(*) FROM pkgbuild_replicas") == replicas)

        let second = CLI.run(argv)
        let stats = try server.stop()
        #expect(second.exitCode == 0, "\(second.stderr)")
        #expect(try sqlite(package + "/basemap.mbtiles", "SELECT count(*) FROM tiles") == "85")
        #expect(stats.counts["/2/1/1.png"] == 7)
        #expect(stats.counts["/0/0/0.png"] == 1)  // kept, not fetched again
        #expect(!FileManager.default.fileExists(atPath: package + ".partial"))
    }

    @Test(.timeLimit(.minutes(2)))
    func tilesSkipFailedFinishesAndListsThem() throws {
        let server = try TestTileServer(script: TileServerScript(rules: [Self.failing]))
        let dir = try TemporaryDirectory()
        let out = dir.path("world.mbtiles")
        let r = CLI.run(["tiles", "--area=-180,-85,180,85", "--zoom", "0-3", "--from", server.baseURL + "/{z}/{x}/{y}.png?key=s3cret",
                         "-o", out, "--skip-failed", "--json"])
        try server.stop()
        #expect(r.exitCode == 0, "\(r.stderr)")
        #expect(r.stderr.contains("2 tiles could not be fetched from \(server.baseURL)/{z}/{x}/{y}.png and are left out: "),
                "\(r.stderr)")
        for tile in ["2/1/1", "3/5/2"] {
            #expect(r.stderr.contains("\(tile) (HTTP status 500 after 6 attempts - \(server.baseURL)/\(tile).png?key=REDACTED)"),
                    "\(r.stderr)")
        }
        #expect(!r.stderr.contains("s3cret") && !r.stdout.contains("s3cret"))
        let doc = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        #expect(doc["failed"] as? Int == 2)
        let listed = (doc["failed_tiles"] as? [[String: String]] ?? []).compactMap { $0["tile"] }.sorted()
        #expect(listed == ["2/1/1", "3/5/2"])
        #expect(try sqlite(out, "SELECT count(*) FROM tiles") == "83")
        #expect(!FileManager.default.fileExists(atPath: out + ".partial"))
    }
}

/// `create --skip-failed` behaves as `tiles --skip-failed`: the basemap is finished without
/// the tiles whose retries ran out, they are listed in the output and by `inspect`, and the
/// manifest records the zooms really held.
@Suite("create --skip-failed")
struct CreateSkipFailedTests {
    /// Alaska's box: 1, 1, 2 tiles at zoom 0-2, a few at zoom 3, all of which fail.
    static let area = "-170,50,-130,72"

    @Test(.timeLimit(.minutes(2)))
    func finishesWithoutThemListsThemAndInspectWarns() throws {
        let server = try TestTileServer(script: TileServerScript(rules: [.init(match: "^/3/", responses: Array(repeating: "500", count: 6))]))
        let dir = try TemporaryDirectory()
        let source = try dir.copy(testdata: "demo/alaska_source.gpkg")
        let package = dir.path("alaska.pkg")
        let r = CLI.run(["create", "--area", Self.area, "--features", source, "--tiles", server.baseURL + "/{z}/{x}/{y}.png",
                         "--zoom", "0-3", "-o", package, "--skip-failed", "--json"])
        try server.stop()
        #expect(r.exitCode == 0, "\(r.stderr)")
        let doc = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        let basemap = try #require(doc["basemap"] as? [String: Any], "\(r.stdout)")
        let failed = try #require(basemap["failed"] as? Int)
        let listed = (basemap["failed_tiles"] as? [[String: String]] ?? []).compactMap { $0["tile"] }
        #expect(failed > 0 && listed.count == failed && listed.allSatisfy { $0.hasPrefix("3/") }, "\(listed)")
        #expect(basemap["held_zooms"] as? [Int] == [0, 1, 2])
        #expect(r.stderr.contains("\(failed) tiles could not be fetched from \(server.baseURL)/{z}/{x}/{y}.png and are left out: "),
                "\(r.stderr)")
        for tile in listed { #expect(r.stderr.contains("\(tile) (HTTP status 500 after 6 attempts"), "\(r.stderr)") }
        let tiles = try runProcess("sqlite3", [package + "/basemap.mbtiles", "SELECT group_concat(DISTINCT zoom_level) FROM tiles"])
        #expect(tiles.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "0,1,2")
        #expect(!FileManager.default.fileExists(atPath: package + ".partial"))
        let manifest = try #require(try JSONSerialization.jsonObject(
            with: Data(contentsOf: URL(fileURLWithPath: package + "/manifest.json"))) as? [String: Any])
        let record = try #require(manifest["tiles"] as? [String: Any])
        #expect(record["max_zoom"] as? Int == 2 && record["requested_max_zoom"] as? Int == 3, "\(record)")

        let inspect = CLI.run(["inspect", package, "--json"])
        let report = try #require(try JSONSerialization.jsonObject(with: Data(inspect.stdout.utf8)) as? [String: Any])
        let warnings = report["warnings"] as? [[String: Any]] ?? []
        let message = try #require(warnings.first { $0["code"] as? String == "tiles-failed" }?["message"] as? String, "\(warnings)")
        #expect(message.contains("finished without \(failed) tiles the source failed to deliver (--skip-failed; zoom 3: \(failed))"),
                "\(message)")
        for tile in listed { #expect(message.contains(tile)) }
        // Left out by failures, not absent from the source: not counted twice.
        #expect(!warnings.contains { $0["code"] as? String == "tiles-absent" }, "\(warnings)")
        let text = CLI.run(["inspect", package]).stdout
        #expect(text.contains("; zooms 0-2 (0-3 asked); "), "\(text)")
    }

    @Test func needsTiles() {
        let r = CLI.run(["create", "--area=0,0,1,1", "--features", "x.gpkg", "-o", "x.pkg", "--skip-failed"])
        #expect(r.exitCode == 64, "\(r.stderr)")
        #expect(r.stderr.contains("--skip-failed needs --tiles"), "\(r.stderr)")
    }
}

/// `create --tiles URL` fetches as `tiles --from URL` does: pkgbuild's versioned
/// User-Agent, the `--header`s, at most `--rate` requests a second, with progress on a
/// terminal.
@Suite("create --tiles over HTTP as tiles does")
struct CreateTilesOverHTTPTests {
    @Test(.timeLimit(.minutes(2)))
    func userAgentHeadersRateAndProgress() throws {
        let server = try TestTileServer()
        let dir = try TemporaryDirectory()
        let source = try dir.copy(testdata: "demo/alaska_source.gpkg")
        let package = dir.path("world.pkg")
        // 21 tiles at zoom 0-2, at most 10 a second: the last starts at least 2 s after the first.
        let r = CLI.run(["create", "--area=-180,-85,180,85", "--features", source, "--tiles", server.baseURL + "/{z}/{x}/{y}.png",
                         "--zoom", "0-2", "--rate", "10", "--header", "Authorization: Bearer HEADERSECRET", "-o", package],
                        isTerminal: true)
        let stats = try server.stop()
        #expect(r.exitCode == 0, "\(r.stderr)")
        #expect(stats.log.count == 21)
        for request in stats.log {
            #expect(request.headers["user-agent"] == "pkgbuild/\(PkgBuildVersion.current)")
            #expect(request.headers["authorization"] == "Bearer HEADERSECRET")
        }
        let times = stats.log.map(\.t)
        let span = try #require(times.max()) - (try #require(times.min()))
        #expect(span >= 1.8, "21 requests in \(span) s at --rate 10")
        #expect(r.stderr.contains("tiles [") && r.stderr.contains("21/21"), "\(r.stderr)")
        let manifest = try String(contentsOfFile: package + "/manifest.json", encoding: .utf8)
        #expect(!manifest.contains("HEADERSECRET"))
    }

    @Test func rateNeedsTiles() {
        let r = CLI.run(["estimate", "--area=0,0,1,1", "--features", "x.gpkg", "--rate", "5"])
        #expect(r.exitCode == 64, "\(r.stderr)")
        #expect(r.stderr.contains("--rate needs --tiles"), "\(r.stderr)")
    }
}
