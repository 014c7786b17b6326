import Foundation
import Geometry
import PkgBuildCLI
import SQLite
import TestSupport
import Testing

/// A source held by another process (a writer's exclusive lock): the commands that write it
/// say which file they wait for on a terminal, wait only as long as `--lock-timeout`, and end
/// with an error naming the file, with nothing changed.
@Suite("A database held by another process")
struct LockWaitTests {
    /// A package with one pending edit, and a connection holding the source's write lock.
    private func heldSource() throws -> (SyncFixture, URL, holder: Connection) {
        let fixture = try SyncFixture()
        let url = try fixture.makePackage()
        try fixture.openPackage(url).connection.execute("UPDATE airports SET type = 'held' WHERE name = 'Kodiak'")
        let holder = try Connection(path: fixture.sourcePath, mode: .readWrite)
        try holder.execute("BEGIN EXCLUSIVE")
        return (fixture, url, holder)
    }

    @Test("sync on a terminal says it is waiting, gives up after --lock-timeout naming the source, changes nothing")
    func syncWaitsOnATerminal() throws {
        let (fixture, url, holder) = try heldSource()
        let before = try fixture.snapshot(url)
        let start = Date()
        let result = CLI.run(["sync", url.path, "--lock-timeout", "1"], isTerminal: true)
        let waited = Date().timeIntervalSince(start)
        #expect(result.exitCode == 1)
        #expect(result.stderr.contains("Waiting for \(fixture.sourcePath): another process holds it (giving up after 1 s"),
                "\(result.stderr)")
        #expect(result.stderr.contains("Error: \(fixture.sourcePath) is held by another process: gave up after waiting 1 s; "
            + "run it again when the other process is done, or wait longer with --lock-timeout SECONDS"), "\(result.stderr)")
        #expect(waited >= 1 && waited < 15, "waited \(waited) s")
        try holder.execute("ROLLBACK")
        #expect(try fixture.snapshot(url) == before)

        let again = CLI.run(["sync", url.path])
        #expect(again.exitCode == 0, "\(again.stderr)")
        #expect(try sqliteScalarInSource(fixture, "SELECT type FROM airports WHERE name = 'Kodiak'") == "held")
    }

    @Test("in a pipe the wait is silent; the error names the file, as JSON under --json (kind locked)")
    func syncInAPipe() throws {
        let (fixture, url, holder) = try heldSource()
        defer { try? holder.execute("ROLLBACK") }
        let text = CLI.run(["sync", url.path, "--lock-timeout", "0.5"])
        #expect(text.exitCode == 1)
        #expect(text.stderr == "Error: \(fixture.sourcePath) is held by another process: gave up after waiting 0.5 s; "
            + "run it again when the other process is done, or wait longer with --lock-timeout SECONDS\n")
        let json = CLI.run(["sync", url.path, "--lock-timeout", "0.5", "--json"])
        #expect(json.exitCode == 1)
        #expect(json.stderr.hasPrefix(#"{"error":{"kind":"locked","message":"\#(fixture.sourcePath) is held by another process"#),
                "\(json.stderr)")
    }

    @Test("source unregister and create give up on a held source the same way")
    func otherWritersGiveUp() throws {
        let (fixture, url, holder) = try heldSource()
        defer { try? holder.execute("ROLLBACK") }
        // A replica that exists (named by its package), so that the unregister reaches its write.
        let unregister = CLI.run(["source", "unregister", fixture.sourcePath, url.path, "--lock-timeout", "0.5"])
        #expect(unregister.exitCode == 1)
        #expect(unregister.stderr.contains("\(fixture.sourcePath) is held by another process: gave up after waiting 0.5 s"),
                "\(unregister.stderr)")
        let output = fixture.directory.path("second.pkg")
        let create = CLI.run(["create", "--area=-160,57,-140,66", "--features", fixture.sourcePath, "-o", output,
                              "--lock-timeout", "0.5"])
        #expect(create.exitCode == 1)
        #expect(create.stderr.contains("\(fixture.sourcePath) is held by another process"), "\(create.stderr)")
        #expect(!FileManager.default.fileExists(atPath: output))
        _ = url
    }

    @Test("Ctrl-C during the wait ends it at once with exit 130, not at the timeout")
    func ctrlCEndsTheWait() throws {
        let (fixture, url, holder) = try heldSource()
        defer { try? holder.execute("ROLLBACK") }
        let before = try fixture.snapshot(url)
        let cancellation = Cancellation()
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.5) { cancellation.cancel() }
        let start = Date()
        let result = CLI.run(["sync", url.path, "--lock-timeout", "60"], cancellation: cancellation)
        let waited = Date().timeIntervalSince(start)
        #expect(result.exitCode == 130, "\(result.stderr)")
        #expect(waited < 30, "waited \(waited) s")
        try holder.execute("ROLLBACK")
        #expect(try fixture.snapshot(url) == before)
    }

    @Test("a negative --lock-timeout is a usage error")
    func negativeTimeout() {
        let result = CLI.run(["sync", "a.pkg", "--lock-timeout", "-1"])
        #expect(result.exitCode == 64)
        #expect(result.stderr.hasPrefix("Error: --lock-timeout must be a number of seconds, 0 or more"), "\(result.stderr)")
    }

    private func sqliteScalarInSource(_ fixture: SyncFixture, _ sql: String) throws -> String? {
        try fixture.openSource().connection.scalar(sql)?.stringValue
    }
}
