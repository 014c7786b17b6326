import Foundation
import Geodatabase
import SQLite
@testable import Sync
import TestSupport
import Testing

/// Real crashes: `pkgbuild sync` of thousands of edits, killed with SIGKILL at random moments
/// (at least 50 kills in all for each backend), re-run until it finishes; both sides then
/// equal, by global id and row count, those of an uninterrupted sync of an identical copy (for
/// PostGIS a database made from the same template, its rows read by psql).
@Suite(.serialized) struct KillTests {
    static let binary = TestData.root.appendingPathComponent(".build/debug/pkgbuild").path
    static let backends = [SourceBackend.geoPackage, .postgreSQL].filter(SourceBackend.available.contains)

    /// Thousands of edits on both sides, some overlapping (merged columns, and conflicts that
    /// package-wins settles). The 3000 office rows are in the GeoPackage before either source
    /// is made of it, so both backends start from the same rows.
    static func prepare(_ backend: SourceBackend) throws -> SourceBackendFixture {
        let f = try SourceBackendFixture(backend, seed: { base in
            let source = try base.openSource().connection
            try source.withTransaction {
                for i in 0..<3000 {
                    try source.execute("INSERT INTO airports (geom, name, type) VALUES (?, ?, 'strip')",
                                       [pointBlob(-155 + Double(i % 100) / 10, 58 + Double(i / 100) / 10), .text("s\(i)")])
                }
            }
        })
        let package = try f.base.openPackage(f.url).connection
        try package.withTransaction {
            try package.execute("UPDATE airports SET type = 'pkg-' || fid WHERE name GLOB 's[0-9]*' AND fid % 3 = 0")
            try package.execute("UPDATE airports SET geom = ? WHERE name GLOB 's[0-9]*' AND fid % 5 = 0", [pointBlob(-150, 60)])
            try package.execute("DELETE FROM airports WHERE name GLOB 's[0-9]*' AND fid % 7 = 1")
            for i in 0..<500 {
                try package.execute("INSERT INTO airports (geom, name) VALUES (?, ?)", [pointBlob(-151, 59 + Double(i) / 1000), .text("p\(i)")])
            }
        }
        let officeEdits = [
            "UPDATE airports SET iata_code = 'S' || fid WHERE name GLOB 's[0-9]*' AND fid % 2 = 0",
            "UPDATE airports SET type = 'office' WHERE name GLOB 's[0-9]*' AND fid % 30 = 0",
            "DELETE FROM airports WHERE name GLOB 's[0-9]*' AND fid % 11 = 2",
        ]
        switch backend {
        case .postgreSQL:
            // One psql call: one transaction, as the GeoPackage's.
            try f.postGIS!.psql(officeEdits.map { $0.replacingOccurrences(of: "GLOB 's[0-9]*'", with: "~ '^s[0-9]'") }
                .joined(separator: "; "))
        default:
            let source = try f.base.openSource().connection
            try source.withTransaction { for sql in officeEdits { try source.execute(sql) } }
        }
        return f
    }

    static func syncArguments(_ f: SourceBackendFixture) -> [String] {
        ["sync", f.url.path, "--source", f.address, "--on-conflict", "package-wins"]
    }

    /// The GeoPackage source and package of `prepare(.geoPackage)` (InterruptTests starts there).
    static func prepare() throws -> (SyncFixture, URL) {
        let f = try prepare(.geoPackage)
        return (f.base, f.url)
    }

    static func syncArguments(_ fixture: SyncFixture, _ url: URL) -> [String] {
        ["sync", url.path, "--source", fixture.sourcePath, "--on-conflict", "package-wins"]
    }

    @Test(arguments: backends)
    func randomSIGKILLsThenRerunEqualUninterrupted(_ backend: SourceBackend) throws {
        #expect(FileManager.default.isExecutableFile(atPath: Self.binary), "build the executable first")
        let start = try Self.prepare(backend)
        let reference = try start.copy()
        let began = Date()
        let uninterrupted = try runProcess(Self.binary, Self.syncArguments(reference))
        let duration = Date().timeIntervalSince(began)
        #expect(uninterrupted.status == 0, "\(uninterrupted.stderr)")
        let expected = try reference.snapshot()
        let expectedCounts = try reference.rowCounts()
        #expect(try PackageChangeTracking(connection: reference.base.openPackage(reference.url).connection).pendingChanges().isEmpty)

        // Each attempt is killed at a random instant of its expected run time, or (one time in
        // four) left to finish, which ends the round. The expected time follows the runs that
        // finished, so that the kills keep landing inside runs as the machine's load changes.
        var kills = 0, rounds = 0
        var expectedDuration = duration
        while kills < 50 && rounds < 200 {
            rounds += 1
            let f = try start.copy()
            while true {
                let (killed, took) = try Self.attempt(Self.syncArguments(f), killWithin: expectedDuration)
                if killed { kills += 1; continue }
                expectedDuration = 0.5 * expectedDuration + 0.5 * took
                break
            }
            #expect(try f.snapshot() == expected, "round \(rounds)")
            #expect(try f.rowCounts() == expectedCounts, "round \(rounds)")
            #expect(try PackageChangeTracking(connection: f.base.openPackage(f.url).connection).pendingChanges().isEmpty)
        }
        #expect(kills >= 50, "\(kills) kills in \(rounds) rounds")
    }

    /// One run of the binary, SIGKILLed three times in four at a random instant of
    /// `killWithin` seconds if still running. - Returns: whether it was killed, else how long
    /// it took to finish (which it must do with status 0).
    static func attempt(_ arguments: [String], killWithin expected: TimeInterval) throws -> (killed: Bool, took: TimeInterval) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        let started = Date()
        try process.run()
        if Double.random(in: 0..<1) < 0.75 {
            Thread.sleep(forTimeInterval: Double.random(in: 0...(expected * 0.95)))
            if process.isRunning {
                kill(process.processIdentifier, SIGKILL)
                process.waitUntilExit()
                if process.terminationReason == .uncaughtSignal { return (true, 0) }
            }
        }
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(arguments)")
        return (false, Date().timeIntervalSince(started))
    }
}
