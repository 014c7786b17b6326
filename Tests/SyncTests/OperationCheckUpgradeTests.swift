import Foundation
import PkgBuildCLI
import TestSupport
import Testing

/// Files made before the change logs' operation CHECK took its OR form (`operation IN (...)`,
/// which SQLite checks through a temporary b-tree per logged row) get the OR form from their
/// next sync, in place: the log's rows and AUTOINCREMENT sequence kept, the rule the same
/// (SQLite's own check and a bad operation written by Python's sqlite3 are the judges), and
/// the sync's edits travelling both ways. A dry run leaves the files as they are.
@Suite struct OperationCheckUpgradeTests {
    static let orCheck = "CHECK (operation = 'insert' OR operation = 'update' OR operation = 'delete')"
    static let inCheck = "CHECK (operation IN ('insert', 'update', 'delete'))"

    /// The package's data file and the source, both with the earlier CHECK, each with an edit.
    func earlierFiles() throws -> (SyncFixture, URL, data: String) {
        let fixture = try SyncFixture()
        let url = try fixture.makePackage()
        let data = url.appendingPathComponent("data.gpkg").path
        for (path, log) in [(data, "pkgbuild_edits"), (fixture.sourcePath, "pkgbuild_changes")] {
            let result = try runProcess("sqlite3", [path, """
                PRAGMA writable_schema = ON;
                UPDATE sqlite_master SET sql = replace(sql, \(literal(Self.orCheck)), \(literal(Self.inCheck))) WHERE name = '\(log)';
                PRAGMA writable_schema = OFF;
                """])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(try storedSQL(path, log).contains(Self.inCheck))
        }
        #expect(try pythonSQLite(data, "UPDATE airports SET type = 'field' WHERE name = 'Kodiak'").status == 0)
        #expect(try pythonSQLite(fixture.sourcePath, "UPDATE airports SET type = 'closed' WHERE name = 'Fairbanks Int''l'").status == 0)
        return (fixture, url, data)
    }

    func literal(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "''") + "'"
    }

    func storedSQL(_ path: String, _ log: String) throws -> String {
        try runProcess("sqlite3", [path, "SELECT sql FROM sqlite_master WHERE name = '\(log)'"]).stdout
    }

    func sqlite(_ path: String, _ sql: String) throws -> String {
        try runProcess("sqlite3", [path, sql]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test func aSyncRewritesTheEarlierCheckKeepingTheLogAndItsRule() throws {
        let (fixture, url, data) = try earlierFiles()
        let sequenceBefore = try sqlite(fixture.sourcePath, "SELECT seq FROM sqlite_sequence WHERE name = 'pkgbuild_changes'")
        let logBefore = try sqlite(fixture.sourcePath, "SELECT * FROM pkgbuild_changes ORDER BY generation")

        let result = CLI.run(["sync", url.path, "--source", fixture.sourcePath])
        #expect(result.exitCode == 0, "\(result.stdout) \(result.stderr)")

        for (path, log) in [(data, "pkgbuild_edits"), (fixture.sourcePath, "pkgbuild_changes")] {
            let stored = try storedSQL(path, log)
            #expect(stored.contains(Self.orCheck) && !stored.contains(Self.inCheck), "\(stored)")
            #expect(try sqlite(path, "PRAGMA integrity_check") == "ok")
            // The same rule: an operation that is none of the three is still refused.
            let refused = try pythonSQLite(path, "INSERT INTO \(log) (table_name, globalid, operation) VALUES ('airports', 'x', 'upsert')")
            #expect(refused.status != 0 && refused.stderr.contains("CHECK constraint failed"), "\(refused.stderr)")
        }
        // The log kept its rows (the sync adds its own after them) and its sequence.
        #expect(try sqlite(fixture.sourcePath, "SELECT * FROM pkgbuild_changes ORDER BY generation").hasPrefix(logBefore))
        #expect(try Int(sqlite(fixture.sourcePath, "SELECT seq FROM sqlite_sequence WHERE name = 'pkgbuild_changes'"))! >= Int(sequenceBefore)!)
        // Both edits travelled.
        #expect(try sqlite(fixture.sourcePath, "SELECT type FROM airports WHERE name = 'Kodiak'") == "field")
        #expect(try sqlite(data, "SELECT type FROM airports WHERE name = 'Fairbanks Int''l'") == "closed")
        let ogr = try runProcess("ogrinfo", ["-ro", "-q", fixture.sourcePath, "-sql", "SELECT count(*) FROM pkgbuild_changes"])
        #expect(ogr.status == 0, "\(ogr.stderr)")
    }

    @Test func aDryRunLeavesTheEarlierCheck() throws {
        let (fixture, url, data) = try earlierFiles()
        let packageBefore = try sqliteDump(data), sourceBefore = try sqliteDump(fixture.sourcePath)
        let result = CLI.run(["sync", url.path, "--source", fixture.sourcePath, "--dry-run"])
        #expect(result.exitCode == 0, "\(result.stdout) \(result.stderr)")
        #expect(try sqliteDump(data) == packageBefore)
        #expect(try sqliteDump(fixture.sourcePath) == sourceBefore)
    }

    /// A log damaged past the earlier CHECK is not rewritten (SQLite's check would fail): the
    /// sync's own check names the row, and neither file changes.
    @Test func aDamagedLogKeepsTheEarlierCheckAndStopsTheSync() throws {
        let (fixture, url, data) = try earlierFiles()
        let damaged = try pythonSQLite(fixture.sourcePath, """
            PRAGMA ignore_check_constraints = ON;
            UPDATE pkgbuild_changes SET operation = 'upsert' WHERE generation = (SELECT max(generation) FROM pkgbuild_changes)
            """)
        #expect(damaged.status == 0, "\(damaged.stderr)")
        let packageBefore = try sqliteDump(data), sourceBefore = try sqliteDump(fixture.sourcePath)
        let result = CLI.run(["sync", url.path, "--source", fixture.sourcePath])
        #expect(result.exitCode == 1, "\(result.stdout) \(result.stderr)")
        #expect(result.stderr.contains("has the unknown operation 'upsert'"), "\(result.stderr)")
        #expect(try sqliteDump(data) == packageBefore, "the package changed")
        #expect(try sqliteDump(fixture.sourcePath) == sourceBefore, "the source changed")
    }
}
