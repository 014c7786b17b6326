import Foundation
import Geometry
import PkgBuildCLI
import Testing
import TestSupport
import TilePackage

/// `pkgbuild tiles --from http://...` against the test tile server on 127.0.0.1.
@Suite("pkgbuild tiles over HTTP")
struct TilesHTTPCommandTests {
    let raster = TestData.url("ne_raster_z0-5.mbtiles").path
    static let binary = TestData.root.appendingPathComponent(".build/debug/pkgbuild").path

    func sqlite(_ path: String, _ sql: String) throws -> String {
        let r = try runProcess("sqlite3", [path, sql])
        #expect(r.status == 0, "\(r.stderr)")
        return r.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Every tile of an MBTiles as sqlite3 lists it: zoom, column, TMS row, hex bytes.
    func tileDump(_ path: String) throws -> String {
        try sqlite(path, "SELECT zoom_level, tile_column, tile_row, hex(tile_data) FROM tiles ORDER BY 1, 2, 3")
    }

    func metadataDump(_ path: String) throws -> String {
        try sqlite(path, "SELECT name, value FROM metadata ORDER BY name")
    }

    func json(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    @Test("output complete where tiles exist, absent ones counted, faults on the way recovered")
    func completeWithAbsentAndFaults() throws {
        let script = TileServerScript(rules: [
            .init(match: "^/2/0/1\\.", responses: ["500", "503"]),
            .init(match: "^/3/1/2\\.", responses: ["429:1"]),
            .init(match: "^/4/1/4\\.", responses: ["truncate"]),
        ])
        let server = try TestTileServer(script: script)
        let dir = try TemporaryDirectory()
        let out = dir.path("alaska.mbtiles")
        let result = CLI.run(["tiles", "--area", "-170,50,-130,72", "--zoom", "0-6", "--from", server.baseURL + "/{z}/{x}/{y}.png",
                              "-o", out, "--concurrency", "4", "--json"])
        let stats = try server.stop()
        #expect(result.exitCode == 0, "\(result.stderr)")
        let report = try json(result.stdout)

        // What the file source holds for the same area, as sqlite3 selects it by ranges.
        let coverage = TileCoverage(lonLatBoxes: [Envelope(minX: -170, minY: 50, maxX: -130, maxY: 72)], zooms: 0...6)
        var expected: [String] = []
        for z in 0...5 {
            for r in coverage.ranges(zoom: z) {
                let rows = try sqlite(raster, "SELECT zoom_level, tile_column, tile_row, hex(tile_data) FROM tiles WHERE zoom_level = \(z) AND tile_column BETWEEN \(r.minX) AND \(r.maxX) AND tile_row BETWEEN \(r.minTMSY) AND \(r.maxTMSY)")
                expected += rows.split(separator: "\n").map(String.init)
            }
        }
        #expect(try tileDump(out).split(separator: "\n").map(String.init) == expected.sorted { a, b in
            let pa = a.split(separator: "|").prefix(3).compactMap { Int($0) }, pb = b.split(separator: "|").prefix(3).compactMap { Int($0) }
            return pa.lexicographicallyPrecedes(pb)
        })
        #expect(report["written"] as? Int == expected.count)
        #expect(report["absent"] as? Int == coverage.count(zoom: 6))  // the source stops at zoom 5
        #expect(try sqlite(out, "SELECT value FROM metadata WHERE name = 'maxzoom'") == "5")
        #expect(stats.counts["/2/0/1.png"] == 3)
        #expect(stats.counts["/4/1/4.png"] == 2)
        #expect(stats.max_connections <= 4)
    }

    @Test("neither the query string nor the headers reach the output; the User-Agent is pkgbuild's")
    func credentialsStayOut() throws {
        let server = try TestTileServer()
        let dir = try TemporaryDirectory()
        let out = dir.path("world.mbtiles")
        let result = CLI.run(["tiles", "--area", "-180,-85,180,85", "--zoom", "0-2",
                              "--from", server.baseURL + "/{z}/{x}/{y}.png?access_token=QUERYSECRET",
                              "--header", "Authorization: Bearer HEADERSECRET", "-o", out])
        let stats = try server.stop()
        #expect(result.exitCode == 0, "\(result.stderr)")
        let bytes = try Data(contentsOf: URL(fileURLWithPath: out))
        for secret in ["QUERYSECRET", "HEADERSECRET", "access_token"] {
            #expect(bytes.range(of: Data(secret.utf8)) == nil, "\(secret) is in the output")
            #expect(!result.stdout.contains(secret) && !result.stderr.contains(secret))
        }
        #expect(stats.log.count == 21)
        for request in stats.log {
            #expect(request.headers["authorization"] == "Bearer HEADERSECRET")
            #expect(request.headers["user-agent"] == "pkgbuild/\(PkgBuildVersion.current)")
        }
    }

    @Test("tiles whose retries run out fail the run with their count; the same command resumes",
          .timeLimit(.minutes(2)))
    func retriesRunOutThenResume() throws {
        // 6 answers of 500 exhaust 1 try + 5 retries; the 7th request (the re-run) succeeds.
        let failing = TileServerScript.Rule(match: "^/(2/1/1|3/5/2)\\.png$", responses: Array(repeating: "500", count: 6))
        let server = try TestTileServer(script: TileServerScript(rules: [failing]))
        let dir = try TemporaryDirectory()
        let out = dir.path("world.mbtiles")
        let argv = ["tiles", "--area", "-180,-85,180,85", "--zoom", "0-3", "--from", server.baseURL + "/{z}/{x}/{y}.png?key=s3cret",
                    "-o", out, "--json"]
        let first = CLI.run(argv)
        #expect(first.exitCode == 1)
        #expect(first.stderr.contains("2 of 85 tiles could not be fetched"), "\(first.stderr)")
        // The first failure says what it was and where, without the key.
        #expect(first.stderr.contains("(the first: HTTP status 500 after 6 attempts - \(server.baseURL)/"), "\(first.stderr)")
        #expect(first.stderr.contains(".png?key=REDACTED)"), "\(first.stderr)")
        #expect(!first.stderr.contains("s3cret"), "\(first.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out))
        #expect(FileManager.default.fileExists(atPath: out + ".partial"))

        let second = CLI.run(argv)
        let stats = try server.stop()
        #expect(second.exitCode == 0, "\(second.stderr)")
        let report = try json(second.stdout)
        #expect(report["resumed"] as? Int == 83)
        #expect(report["written"] as? Int == 2)
        #expect(try sqlite(out, "SELECT count(*) FROM tiles") == "85")
        #expect(stats.counts["/2/1/1.png"] == 7)
        #expect(stats.counts["/0/0/0.png"] == 1)  // not fetched again
        #expect(!FileManager.default.fileExists(atPath: out + ".partial"))
    }

    @Test("Ctrl-C mid-download stops with 130, keeps the tiles so far, and the same command resumes",
          .timeLimit(.minutes(2)))
    func interruptedRunResumes() throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.binary), "build the executable first: swift build")
        let server = try TestTileServer(script: TileServerScript(delay: 0.04))  // slowed down: ~100 tiles/s
        let dir = try TemporaryDirectory()
        let out = dir.path("world.mbtiles")
        let argv = ["tiles", "--area", "-180,-85,180,85", "--zoom", "0-4", "--from", server.baseURL + "/{z}/{x}/{y}.png",
                    "-o", out, "--concurrency", "4", "--json"]
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.binary)
        process.arguments = argv
        let stderr = Pipe()
        process.standardOutput = FileHandle.nullDevice
        process.standardError = stderr
        try process.run()
        // Half a second into the download (its work file exists): tiles have arrived, likely
        // before the first timed commit, and the end (~3.4 s at the server's pace) is far.
        let deadline = Date(timeIntervalSinceNow: 60)
        while !FileManager.default.fileExists(atPath: out + ".partial") && process.isRunning && Date() < deadline {
            Thread.sleep(forTimeInterval: 0.01)
        }
        Thread.sleep(forTimeInterval: 0.5)
        #expect(process.isRunning, "the run ended before it could be interrupted")
        kill(process.processIdentifier, SIGINT)
        process.waitUntilExit()
        let message = String(decoding: stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(process.terminationStatus == 130, "\(message)")
        #expect(message.contains("Interrupted: the tiles so far are kept in \(out).partial"), "\(message)")
        #expect(!FileManager.default.fileExists(atPath: out))
        // What was written before Ctrl-C is committed, not only what the last timed commit held.
        let kept = try #require(Int(try sqlite(out + ".partial", "SELECT count(*) FROM map")))
        #expect(kept > 0 && kept < 341, "tiles kept: \(kept)")

        let resumed = CLI.run(argv)
        try server.stop()
        #expect(resumed.exitCode == 0, "\(resumed.stderr)")
        let report = try json(resumed.stdout)
        #expect(report["resumed"] as? Int == kept)
        #expect(try sqlite(out, "SELECT count(*) FROM tiles") == "341")
    }

    @Test("a run killed with SIGKILL mid-download, resumed, equals an uninterrupted run",
          .timeLimit(.minutes(2)))
    func killedRunResumes() throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.binary), "build the executable first: swift build")
        let server = try TestTileServer(script: TileServerScript(delay: 0.04))  // slowed down: ~100 tiles/s
        let dir = try TemporaryDirectory()
        // The same file name in two directories: the tileset's name comes from it.
        for sub in ["killed", "whole"] {
            try FileManager.default.createDirectory(atPath: dir.path(sub), withIntermediateDirectories: true)
        }
        let killed = dir.path("killed/world.mbtiles")
        let whole = dir.path("whole/world.mbtiles")
        func argv(_ out: String) -> [String] {
            ["tiles", "--area", "-180,-85,180,85", "--zoom", "0-4", "--from", server.baseURL + "/{z}/{x}/{y}.png",
             "-o", out, "--concurrency", "4", "--json"]
        }

        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.binary)
        process.arguments = argv(killed)
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        // Wait until some batches are committed to the work file, then kill without warning.
        var committed = 0
        let deadline = Date(timeIntervalSinceNow: 30)
        while committed < 64 && Date() < deadline && process.isRunning {
            Thread.sleep(forTimeInterval: 0.05)
            let r = try runProcess("sqlite3", [killed + ".partial", "SELECT count(*) FROM tiles"])
            committed = r.status == 0 ? Int(r.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0 : 0
        }
        #expect(process.isRunning, "the run ended before it could be killed")
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal)
        #expect(committed >= 64 && committed < 341, "tiles committed when killed: \(committed)")
        #expect(!FileManager.default.fileExists(atPath: killed))
        #expect(FileManager.default.fileExists(atPath: killed + ".partial"))

        let resumed = CLI.run(argv(killed))
        #expect(resumed.exitCode == 0, "\(resumed.stderr)")
        let report = try json(resumed.stdout)
        let resumedCount = try #require(report["resumed"] as? Int)
        #expect(resumedCount >= committed)
        #expect(resumedCount + (report["written"] as? Int ?? -1) == 341)

        let uninterrupted = CLI.run(argv(whole))
        #expect(uninterrupted.exitCode == 0, "\(uninterrupted.stderr)")
        try server.stop()

        #expect(try tileDump(killed) == tileDump(whole))
        let (killedMetadata, wholeMetadata) = (try metadataDump(killed), try metadataDump(whole))
        #expect(killedMetadata == wholeMetadata)
        #expect(killedMetadata.contains("format|png"), "\(killedMetadata)")
        #expect(try sqlite(killed, "SELECT count(*) FROM tiles") == "341")
        #expect(!FileManager.default.fileExists(atPath: killed + ".partial"))
    }
}
