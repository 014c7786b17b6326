import Foundation
import Geodatabase
import SQLite
@testable import Sync
import TestSupport
import Testing

/// Real crashes: `pkgbuild sync` of thousands of edits, killed with SIGKILL at random moments
/// (at least 50 kills in all), re-run until it finishes; both databases then equal, by global
/// id and row count, those of an uninterrupted sync of an identical copy.
@Suite(.serialized) struct KillTests {
    static let binary = TestData.root.appendingPathComponent(".build/debug/pkgbuild").path

    /// Thousands of edits on both sides, some overlapping (merged columns, and conflicts that
    /// package-wins settles).
    static func prepare() throws -> (SyncFixture, URL) {
        let fixture = try SyncFixture()
        let source = try fixture.openSource().connection
        try source.withTransaction {
            for i in 0..<3000 {
                try source.execute("INSERT INTO airports (geom, name, type) VALUES (?, ?, 'strip')",
                                   [pointBlob(-155 + Double(i % 100) / 10, 58 + Double(i / 100) / 10), .text("s\(i)")])
            }
        }
        let url = try fixture.makePackage()
        let package = try fixture.openPackage(url).connection
        try package.withTransaction {
            try package.execute("UPDATE airports SET type = 'pkg-' || fid WHERE name GLOB 's[0-9]*' AND fid % 3 = 0")
            try package.execute("UPDATE airports SET geom = ? WHERE name GLOB 's[0-9]*' AND fid % 5 = 0", [pointBlob(-150, 60)])
            try package.execute("DELETE FROM airports WHERE name GLOB 's[0-9]*' AND fid % 7 = 1")
            for i in 0..<500 {
                try package.execute("INSERT INTO airports (geom, name) VALUES (?, ?)", [pointBlob(-151, 59 + Double(i) / 1000), .text("p\(i)")])
            }
        }
        try source.withTransaction {
            try source.execute("UPDATE airports SET iata_code = 'S' || fid WHERE name GLOB 's[0-9]*' AND fid % 2 = 0")
            try source.execute("UPDATE airports SET type = 'office' WHERE name GLOB 's[0-9]*' AND fid % 30 = 0")
            try source.execute("DELETE FROM airports WHERE name GLOB 's[0-9]*' AND fid % 11 = 2")
        }
        return (fixture, url)
    }

    static func syncArguments(_ fixture: SyncFixture, _ url: URL) -> [String] {
        ["sync", url.path, "--source", fixture.sourcePath, "--on-conflict", "package-wins"]
    }

    static func rowCounts(_ fixture: SyncFixture, _ url: URL) throws -> [Int64] {
        let p = try fixture.openPackage(url).connection, s = try fixture.openSource().connection
        return try ["airports", "parks", "park_visitors"].flatMap { t in
            [try p.scalar("SELECT count(*) FROM \(t)")?.int64Value ?? -1, try s.scalar("SELECT count(*) FROM \(t)")?.int64Value ?? -1]
        }
    }

    @Test func randomSIGKILLsThenRerunEqualUninterrupted() throws {
        #expect(FileManager.default.isExecutableFile(atPath: Self.binary), "build the executable first")
        let (start, startURL) = try Self.prepare()
        let (reference, referenceURL) = try start.clone(package: startURL)
        let began = Date()
        let uninterrupted = try runProcess(Self.binary, Self.syncArguments(reference, referenceURL))
        let duration = Date().timeIntervalSince(began)
        #expect(uninterrupted.status == 0, "\(uninterrupted.stderr)")
        let expected = try reference.snapshot(referenceURL)
        let expectedCounts = try Self.rowCounts(reference, referenceURL)
        #expect(try PackageChangeTracking(connection: reference.openPackage(referenceURL).connection).pendingChanges().isEmpty)

        // Each attempt is killed at a random instant of its expected run time, or (one time in
        // four) left to finish, which ends the round. The expected time follows the runs that
        // finished, so that the kills keep landing inside runs as the machine's load changes.
        var kills = 0, rounds = 0
        var expectedDuration = duration
        while kills < 50 && rounds < 200 {
            rounds += 1
            let (fixture, url) = try start.clone(package: startURL)
            var finished = false
            while !finished {
                let process = Process()
                process.executableURL = URL(fileURLWithPath: Self.binary)
                process.arguments = Self.syncArguments(fixture, url)
                process.standardOutput = FileHandle.nullDevice
                process.standardError = FileHandle.nullDevice
                let started = Date()
                try process.run()
                if Double.random(in: 0..<1) < 0.75 {
                    Thread.sleep(forTimeInterval: Double.random(in: 0...(expectedDuration * 0.95)))
                    if process.isRunning {
                        kill(process.processIdentifier, SIGKILL)
                        process.waitUntilExit()
                        if process.terminationReason == .uncaughtSignal {
                            kills += 1
                            continue
                        }
                    }
                }
                process.waitUntilExit()
                expectedDuration = 0.5 * expectedDuration + 0.5 * Date().timeIntervalSince(started)
                #expect(process.terminationStatus == 0)
                finished = true
            }
            #expect(try fixture.snapshot(url) == expected, "round \(rounds)")
            #expect(try Self.rowCounts(fixture, url) == expectedCounts, "round \(rounds)")
            #expect(try PackageChangeTracking(connection: fixture.openPackage(url).connection).pendingChanges().isEmpty)
        }
        #expect(kills >= 50, "\(kills) kills in \(rounds) rounds")
    }
}
