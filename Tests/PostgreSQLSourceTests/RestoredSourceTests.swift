import Foundation
import PkgBuildCLI
import Testing
import TestSupport

/// A PostgreSQL source restored from a backup older than the package's last sync: refused as
/// restored, nothing written at either side; the way out is named.
@Suite(.needsPostgreSQL) struct RestoredSourceTests {
    @Test func aPackageSyncedAfterTheBackupIsRefusedByTheRestoredDatabase() throws {
        let source = try PostGISSource()
        #expect(CLI.run(["source", "enable", source.address]).exitCode == 0)
        let directory = try TemporaryDirectory("pkgbuild-restored")
        let package = directory.path("crew.pkg")
        let created = CLI.run(["create", "--area=-160,57,-140,66", "--features", source.address, "--output", package])
        try #require(created.exitCode == 0, "\(created.stderr)")
        // The backup: a copy of the database as it is now (CREATE DATABASE … TEMPLATE).
        let backup = PostgreSQLTestServer.uniqueName("backup")
        try PostgreSQLTestServer.psql("CREATE DATABASE \(backup) TEMPLATE \(source.database.name)",
                                      conninfo: PostgreSQLTestServer.conninfo(database: "postgres"))
        defer {
            _ = try? PostgreSQLTestServer.psql("DROP DATABASE IF EXISTS \(backup) WITH (FORCE)",
                                               conninfo: PostgreSQLTestServer.conninfo(database: "postgres"))
        }
        try edit(package, "UPDATE airports SET type = 'first' WHERE name = 'Kodiak'")
        #expect(CLI.run(["sync", package, "--source", source.address]).exitCode == 0)

        try edit(package, "UPDATE airports SET type = 'second' WHERE name = 'Kodiak'")
        let restored = "PG:\(PostgreSQLTestServer.conninfo(database: backup))"
        let before = try PostgreSQLTestServer.psql("SELECT count(*) FROM pkgbuild.changes", conninfo: PostgreSQLTestServer.conninfo(database: backup))
        let refused = CLI.run(["sync", package, "--source", restored])
        #expect(refused.exitCode == 1, "\(refused.stdout) \(refused.stderr)")
        #expect(refused.stderr.contains("restored from an older backup") && refused.stderr.contains("--reattach"), "\(refused.stderr)")
        #expect(try PostgreSQLTestServer.psql("SELECT count(*) FROM pkgbuild.changes", conninfo: PostgreSQLTestServer.conninfo(database: backup)) == before)
        let kept = try runProcess("/usr/bin/sqlite3", [package + "/data.gpkg", "SELECT type FROM airports WHERE name = 'Kodiak'"])
        #expect(kept.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "second", "the edit is kept")
    }

    private func edit(_ package: String, _ sql: String) throws {
        let result = try runProcess("ogrinfo", ["-q", package + "/data.gpkg", "-sql", sql])
        try #require(result.status == 0 && !result.stderr.contains("ERROR"), "\(result.stderr)")
    }
}
