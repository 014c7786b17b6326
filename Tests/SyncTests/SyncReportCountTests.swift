import Foundation
import PkgBuildCLI
import SQLite
import TestSupport
import Testing

/// The counts and words of a sync's report match what happened to the rows, checked against
/// the databases themselves.
@Suite("Sync report: counts that are right, words that say what was written")
struct SyncReportCountTests {
    /// The `uploaded` and `downloaded` counts of `sync --json`.
    private func counts(_ stdout: String) throws -> (uploaded: [String: Int], downloaded: [String: Int], status: String) {
        let report = try #require(try JSONSerialization.jsonObject(with: Data(stdout.utf8)) as? [String: Any], "\(stdout)")
        return (try #require(report["uploaded"] as? [String: Int]), try #require(report["downloaded"] as? [String: Int]),
                try #require(report["status"] as? String))
    }

    private func kodiak(_ connection: Connection, _ column: String) throws -> String? {
        try connection.scalar("SELECT \(column) FROM airports WHERE name = 'Kodiak'")?.stringValue
    }

    @Test("a local edit merged with a source change of another column counts as downloaded")
    func mergedRowCountsAsDownloaded() throws {
        let fixture = try SyncFixture()
        let url = try fixture.makePackage()
        try fixture.openPackage(url).connection.execute("UPDATE airports SET type = 'field' WHERE name = 'Kodiak'")
        try fixture.openSource().connection.execute("UPDATE airports SET iata_code = 'KDK' WHERE name = 'Kodiak'")
        let result = CLI.run(["sync", url.path, "--json"])
        #expect(result.exitCode == 0, "\(result.stderr)")
        let c = try counts(result.stdout)
        #expect(c.uploaded == ["inserted": 0, "updated": 1, "deleted": 0])
        #expect(c.downloaded == ["inserted": 0, "updated": 1, "deleted": 0])
        // The package did take the source's column: the count describes a real write.
        let package = try fixture.openPackage(url).connection
        #expect(try kodiak(package, "iata_code") == "KDK" && kodiak(package, "type") == "field")
    }

    @Test("a conflict the source wins counts the row as downloaded; a deleted row it brings back as inserted")
    func sourceWinsCountsAsDownloaded() throws {
        let fixture = try SyncFixture()
        let url = try fixture.makePackage()
        let package = try fixture.openPackage(url).connection, source = try fixture.openSource().connection
        try package.execute("UPDATE airports SET type = 'field' WHERE name = 'Kodiak'")
        try source.execute("UPDATE airports SET type = 'office' WHERE name = 'Kodiak'")
        try package.execute("DELETE FROM airports WHERE name = 'Fairbanks Int''l'")
        try source.execute("UPDATE airports SET type = 'office' WHERE name = 'Fairbanks Int''l'")
        let result = CLI.run(["sync", url.path, "--on-conflict", "source-wins", "--json"])
        #expect(result.exitCode == 0, "\(result.stderr)")
        let c = try counts(result.stdout)
        #expect(c.uploaded == ["inserted": 0, "updated": 0, "deleted": 0])
        #expect(c.downloaded == ["inserted": 1, "updated": 1, "deleted": 0])
        #expect(try kodiak(package, "type") == "office")
        #expect(try package.scalar("SELECT type FROM airports WHERE name = 'Fairbanks Int''l'") == "office")
    }

    @Test("a sync stopped by a refused row reports nothing uploaded, and says what it wrote to the package")
    func stoppedSyncReportsNothingApplied() throws {
        let fixture = try SyncFixture()
        let url = try fixture.makePackage()
        let package = try fixture.openPackage(url).connection, source = try fixture.openSource().connection
        // The source refuses one value: that row is a constraint conflict, which `fail` stops on
        // after the other rows were written in the (then rolled back) transaction.
        try source.execute("""
            CREATE TRIGGER refuse_closed BEFORE UPDATE OF type ON airports WHEN NEW.type = 'closed'
            BEGIN SELECT RAISE(ABORT, 'closed airports are not taken'); END
            """)
        try package.execute("UPDATE airports SET type = 'open' WHERE name = 'Fairbanks Int''l'")
        try package.execute("UPDATE airports SET type = 'closed' WHERE name = 'Kodiak'")
        let before = try contents(source, "airports")
        let json = CLI.run(["sync", url.path, "--json"])
        #expect(json.exitCode == 2, "\(json.stderr)")
        let c = try counts(json.stdout)
        #expect(c.status == "stopped-on-conflicts")
        #expect(c.uploaded == ["inserted": 0, "updated": 0, "deleted": 0])
        #expect(c.downloaded == ["inserted": 0, "updated": 0, "deleted": 0])
        #expect(try source.scalar("SELECT type FROM airports WHERE name = 'Fairbanks Int''l'") != "open")

        let text = CLI.run(["sync", url.path])
        #expect(text.exitCode == 2)
        #expect(text.stdout.hasPrefix("""
            Sync stopped on 1 conflict: no row was changed on either side.
            Written:    the conflict to the package's conflict records (see 'pkgbuild conflicts', then 'pkgbuild resolve')
            Pending:    2 local changes, kept for the next sync

            """), "\(text.stdout)")
        #expect(try contents(source, "airports") == before)
    }

    @Test("--direction download with pending edits says they are pending and not uploaded, and exits 0")
    func downloadLeavesEditsPending() throws {
        let fixture = try SyncFixture()
        let url = try fixture.makePackage()
        try fixture.openPackage(url).connection.execute("UPDATE airports SET type = 'field' WHERE name = 'Kodiak'")
        try fixture.openSource().connection.execute("UPDATE airports SET type = 'office' WHERE name = 'Fairbanks Int''l'")
        let result = CLI.run(["sync", url.path, "--direction", "download"])
        #expect(result.exitCode == 0, "\(result.stderr)")
        #expect(result.stdout.contains("Uploaded:   nothing (--direction download)\n"), "\(result.stdout)")
        #expect(result.stdout.contains("Downloaded: 0 inserted, 1 updated, 0 deleted, 0 left the package\n"), "\(result.stdout)")
        #expect(result.stdout.contains(
            "Pending:    1 local change, not uploaded (--direction download); a sync that uploads takes it\n"), "\(result.stdout)")
        #expect(try kodiak(fixture.openSource().connection, "type") != "field")
        #expect(try kodiak(fixture.openPackage(url).connection, "type") == "field")
    }
}
