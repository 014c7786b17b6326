import Foundation
import Geodatabase
import PackageFormat
import SQLite
@testable import Sync
import TestSupport
import Testing

/// Ctrl-C during `pkgbuild sync`: SIGINT to a child process syncing thousands of edits stops it
/// at the next safe point with exit 130, and both databases are then either as they were or
/// fully synced (the same rows as an uninterrupted sync); a re-run completes.
@Suite(.serialized) struct InterruptTests {
    /// Sends SIGINT to a `pkgbuild sync` of the package `delay` seconds after it started.
    /// - Returns: the exit status, stderr, and whether the process was still running when the
    ///   signal went.
    private func syncInterrupted(_ fixture: SyncFixture, _ url: URL, after delay: Double) throws
        -> (status: Int32, stderr: String, signalled: Bool) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: KillTests.binary)
        process.arguments = KillTests.syncArguments(fixture, url)
        let errors = Pipe()
        process.standardOutput = FileHandle.nullDevice
        process.standardError = errors
        try process.run()
        Thread.sleep(forTimeInterval: delay)
        let signalled = process.isRunning
        if signalled { kill(process.processIdentifier, SIGINT) }
        let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, stderr, signalled)
    }

    /// KillTests' edits on both sides, and 6,000 more inserts in the package: a sync of a few
    /// seconds, long enough to be signalled in its upload, at its commit and in its download.
    private func prepare() throws -> (SyncFixture, URL) {
        let (fixture, url) = try KillTests.prepare()
        let package = try fixture.openPackage(url).connection
        try package.withTransaction {
            for i in 0..<6000 {
                try package.execute("INSERT INTO airports (geom, name) VALUES (?, ?)",
                                    [pointBlob(-155 + Double(i % 100) / 10, 59 + Double(i / 100) / 100), .text("q\(i)")])
            }
        }
        return (fixture, url)
    }

    @Test func sigintStopsAtASafePointWithExit130() throws {
        #expect(FileManager.default.isExecutableFile(atPath: KillTests.binary), "build the executable first")
        let (start, startURL) = try prepare()
        let before = try start.snapshot(startURL)
        let (reference, referenceURL) = try start.clone(package: startURL)
        let began = Date()
        let uninterrupted = try runProcess(KillTests.binary, KillTests.syncArguments(reference, referenceURL))
        let duration = Date().timeIntervalSince(began)
        #expect(uninterrupted.status == 0, "\(uninterrupted.stderr)")
        let synced = try reference.snapshot(referenceURL)

        var interrupted = 0, unchanged = 0
        for fraction in [0.2, 0.4, 0.6, 0.8] {
            let (fixture, url) = try start.clone(package: startURL)
            // Not before the child can have installed its handler: a test runner may start it
            // with SIGINT ignored, and a signal before then would be lost, not handled.
            let run = try syncInterrupted(fixture, url, after: max(0.4, duration * fraction))
            guard run.signalled else { continue }  // it finished first: nothing to check here
            #expect(run.status == 130, "SIGINT at \(fraction) of \(duration) s: exit \(run.status), \(run.stderr)")
            #expect(run.stderr.contains("sync interrupted"), "\(run.stderr)")
            interrupted += 1
            let after = try fixture.snapshot(url)
            #expect(after == before || after == synced, "SIGINT at \(fraction): half applied")
            if after == before {
                unchanged += 1
                #expect(run.stderr.contains("nothing was applied on either side"), "\(run.stderr)")
                // The package is as it was, no sync pending.
                #expect(try PackageSyncState.read(fixture.openPackage(url).connection).pendingSyncID == nil)
            }
            let rerun = try runProcess(KillTests.binary, KillTests.syncArguments(fixture, url))
            #expect(rerun.status == 0, "\(rerun.stderr)")
            #expect(try fixture.snapshot(url) == synced)
        }
        #expect(interrupted >= 3, "only \(interrupted) runs were still running when signalled (a sync takes \(duration) s)")
        #expect(unchanged >= 1)
    }
}
