import Foundation
import TestSupport
import Testing

/// The real executable building a package from a generated source of about 35,000 polygons,
/// killed (SIGKILL) at random moments and interrupted (SIGINT): never a half package under
/// the final name, never an active replica without its package, and a re-run of the same
/// command ends with the uninterrupted run's package and one active replica.
@Suite(.serialized) struct CreateKillTests {
    static let binary = TestData.root.appendingPathComponent(".build/debug/pkgbuild").path
    static let validator = GDALValidator.script

    /// naturalearth's countries, 200 copies each, sync-enabled (WAL).
    static func makeSource(_ dir: TemporaryDirectory) throws -> String {
        let source = dir.path("big.gpkg")
        let copy = try runProcess("ogr2ogr", ["-f", "GPKG", source, TestData.url("naturalearth.gpkg").path, "-dialect", "sqlite",
            "-sql", "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 200) "
                + "SELECT c.geom, c.name, n.i AS copy FROM countries c, n", "-nln", "countries", "-nlt", "MULTIPOLYGON"])
        try #require(copy.status == 0, "\(copy.stderr)")
        let enable = try runProcess(binary, ["source", "enable", source])
        try #require(enable.status == 0, "\(enable.stderr)")
        return source
    }

    static func create(_ source: String, _ output: String, register: Bool = true) -> [String] {
        ["create", "--area=-180,-90,180,90", "--features", source, "-o", output] + (register ? [] : ["--no-register"])
    }

    static func start(_ arguments: [String]) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        return process
    }

    static func lines(_ result: ProcessResult) -> [String] {
        result.stdout.split(separator: "\n").map(String.init)
    }

    /// "id|state" of every replica at the source.
    static func replicas(_ source: String) throws -> [String] {
        lines(try runProcess("sqlite3", [source, "SELECT replica_id || '|' || state FROM pkgbuild_replicas ORDER BY 1"]))
    }

    static func count(_ package: String) throws -> String {
        try runProcess("sqlite3", [package + "/data.gpkg", "SELECT count(*) FROM countries"]).stdout
    }

    /// The package under its final name is complete and valid, or absent; an active replica
    /// is the package's.
    static func expectConsistent(_ source: String, _ output: String, _ comment: Comment) throws {
        let fm = FileManager.default
        var packageReplica: String?
        if fm.fileExists(atPath: output) {
            #expect(fm.fileExists(atPath: output + "/manifest.json"), comment)
            #expect(!fm.fileExists(atPath: output + "/build.json"), comment)
            let validation = try runProcess("/usr/bin/python3", [validator, output + "/data.gpkg"])
            #expect(validation.status == 0 && validation.stdout.isEmpty && validation.stderr.isEmpty, comment)
            let manifest = try runProcess("sqlite3", [":memory:", "SELECT json_extract(readfile('\(output)/manifest.json'), '$.replica_id')"])
            packageReplica = lines(manifest).first
        }
        for replica in try replicas(source) where replica.hasSuffix("|active") {
            #expect(packageReplica.map { replica == $0 + "|active" } ?? false, "active replica without its package: \(replica) (package \(fm.fileExists(atPath: output)), \(packageReplica ?? "none")); \(comment)")
        }
    }

    @Test func randomSIGKILLsThenReRunEqualsTheUninterruptedRun() throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.binary), "build the executable first: swift build")
        let dir = try TemporaryDirectory()
        let pristine = try Self.makeSource(dir)
        let began = Date()
        let reference = try runProcess(Self.binary, Self.create(pristine, dir.path("reference.pkg"), register: false))
        let duration = Date().timeIntervalSince(began)
        try #require(reference.status == 0, "\(reference.stderr)")
        let expectedCount = try Self.count(dir.path("reference.pkg"))

        // The reference run's time only guides the kills: while other suites load both cores
        // it can be slower than the runs after it, which may then finish before any kill lands.
        // Such a round starts over on a fresh copy of the source, killing sooner.
        var source = "", output = ""
        var kills = 0, finished = false
        for round in 0..<6 where kills == 0 {
            source = dir.path("source\(round).gpkg")
            output = dir.path("a\(round).pkg")
            let copy = try runProcess("sqlite3", [pristine, ".backup '\(source)'"])
            try #require(copy.status == 0, "\(copy.stderr)")
            let latestKill = max(0.1, duration * 0.95 / Double(1 << round))
            finished = false
            for attempt in 0..<8 where !finished && !FileManager.default.fileExists(atPath: output) {
                let process = try Self.start(Self.create(source, output))
                Thread.sleep(forTimeInterval: Double.random(in: 0.05...latestKill))
                if process.isRunning {
                    kill(process.processIdentifier, SIGKILL)
                    kills += 1
                }
                process.waitUntilExit()
                finished = process.terminationReason == .exit && process.terminationStatus == 0
                try Self.expectConsistent(source, output, "after attempt \(attempt) of round \(round)")
            }
        }
        #expect(kills > 0)
        // A kill that lands after the rename leaves a complete package, which a re-run of the
        // same command rightly refuses to overwrite; only an unfinished build is re-run.
        if !finished && !FileManager.default.fileExists(atPath: output) {
            let rerun = try runProcess(Self.binary, Self.create(source, output))
            #expect(rerun.status == 0, "\(rerun.stderr)")
        }
        try Self.expectConsistent(source, output, "after the re-run")
        #expect(try Self.count(output) == expectedCount)
        #expect(!FileManager.default.fileExists(atPath: output + ".partial"))
        // A kill between the rename and the activation leaves the replica pending; the
        // package's first sync activates it.
        if try Self.replicas(source).contains(where: { $0.hasSuffix("|pending") }) {
            let sync = try runProcess(Self.binary, ["sync", output])
            #expect(sync.status == 0, "\(sync.stderr)")
        }
        // One replica, active, the package's: a replica registered by a killed run was retired.
        let replicas = try Self.replicas(source)
        #expect(replicas.count == 1 && replicas.allSatisfy { $0.hasSuffix("|active") }, "\(replicas)")
    }

    @Test func ctrlCStopsCleanlyWithExitCode130AndTheReRunCompletes() throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.binary), "build the executable first: swift build")
        let dir = try TemporaryDirectory()
        let source = try Self.makeSource(dir)
        let output = dir.path("a.pkg")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.binary)
        process.arguments = Self.create(source, output)
        let stderr = Pipe()
        process.standardOutput = FileHandle.nullDevice
        process.standardError = stderr
        try process.run()
        // Interrupted once the build has begun (its work directory exists, so the Ctrl-C
        // handler is installed), not after a fixed sleep that a loaded machine may outrun
        // either way.
        let deadline = Date(timeIntervalSinceNow: 60)
        while !FileManager.default.fileExists(atPath: output + ".partial") && process.isRunning && Date() < deadline {
            Thread.sleep(forTimeInterval: 0.01)
        }
        try #require(process.isRunning, "the build ended before it could be interrupted")
        process.interrupt()
        let message = String(decoding: stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 130, "\(message)")
        #expect(message.contains("Interrupted") && message.contains("a.pkg.partial"), "\(message)")
        #expect(!FileManager.default.fileExists(atPath: output))
        #expect(FileManager.default.fileExists(atPath: output + ".partial"))
        #expect(try Self.replicas(source).isEmpty)

        let rerun = try runProcess(Self.binary, Self.create(source, output))
        #expect(rerun.status == 0, "\(rerun.stderr)")
        try Self.expectConsistent(source, output, "after the re-run")
        #expect(try Self.replicas(source).count == 1)
    }
}
