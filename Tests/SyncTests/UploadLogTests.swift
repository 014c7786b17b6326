import Foundation
import TestSupport
import Testing

/// A GeoPackage source logs a sync's own upload a batch at a time, its change-log triggers
/// dropped for the write transaction: the log must end exactly as the triggers would have
/// written it, the triggers must be back as they were, and a file where another writer could
/// act meanwhile (a trigger of its own) keeps logging by triggers.
@Suite struct UploadLogTests {
    /// The source's log as the sqlite3 shell reads it: table, global id, operation and
    /// whether a replica's upload wrote it, in generation order.
    func log(_ path: String) throws -> [String] {
        let result = try runProcess("sqlite3", [path, """
            SELECT table_name, globalid, operation, replica_id IS NOT NULL, sync_id IS NOT NULL FROM pkgbuild_changes ORDER BY generation
            """])
        #expect(result.status == 0, "\(result.stderr)")
        return result.stdout.split(separator: "\n").map(String.init)
    }

    /// SQLite's count of schema changes: dropping and re-creating the log triggers moves it.
    func schemaVersion(_ path: String) throws -> String {
        try runProcess("sqlite3", [path, "PRAGMA schema_version"]).stdout
    }

    func triggers(_ path: String) throws -> String {
        try runProcess("sqlite3", [path, "SELECT name, sql FROM sqlite_master WHERE type = 'trigger' ORDER BY name"]).stdout
    }

    /// Edits of every kind, made with GDAL in the package.
    func edit(_ data: String) throws {
        try ogrSQL(data, "UPDATE airports SET type = 'seaplane base' WHERE name = 'Kodiak'")
        try ogrSQL(data, "UPDATE airports SET geom = AsGPB(MakePoint(-147.9, 64.9, 4326)) WHERE name = 'Fairbanks Int''l'")
        try ogrSQL(data, "DELETE FROM airports WHERE name = 'Anchorage Int''l'")
        try ogrSQL(data, "INSERT INTO airports (name, type, geom) VALUES ('Homer', 'small', AsGPB(MakePoint(-151.5, 59.6, 4326)))")
    }

    @Test func theUploadLogsWhatTheTriggersWouldHaveAndPutsThemBack() throws {
        let fixture = try SyncFixture()
        let url = try fixture.makePackage()
        try edit(url.appendingPathComponent("data.gpkg").path)
        let (byTriggers, copyURL) = try fixture.clone(package: url)
        // A trigger of another tool anywhere in the file: the clone's upload is logged by triggers.
        for sql in ["CREATE TABLE office_notes (note TEXT)",
                    "CREATE TRIGGER office_note AFTER INSERT ON office_notes BEGIN SELECT 1; END"] {
            let other = try pythonSQLite(byTriggers.sourcePath, sql)
            #expect(other.status == 0, "\(other.stderr)")
        }
        let before = try triggers(fixture.sourcePath)
        let versions = (try schemaVersion(fixture.sourcePath), try schemaVersion(byTriggers.sourcePath))

        for (run, package) in [(fixture, url), (byTriggers, copyURL)] {
            let report = try run.sync(package)
            #expect(report.status == .completed && report.uploaded.inserted == 1 && report.uploaded.updated == 2
                    && report.uploaded.deleted == 1, "\(report)")
        }
        let deferred = try log(fixture.sourcePath)
        #expect(deferred.count == 4 && deferred.allSatisfy { $0.hasSuffix("|1|1") }, "\(deferred)")
        #expect(deferred.map { String($0.split(separator: "|")[2]) }.sorted() == ["delete", "insert", "update", "update"], "\(deferred)")
        #expect(deferred == (try log(byTriggers.sourcePath)))
        #expect(try triggers(fixture.sourcePath) == before)
        // The first upload did go without its triggers; the clone's kept them.
        #expect(try schemaVersion(fixture.sourcePath) != versions.0)
        #expect(try schemaVersion(byTriggers.sourcePath) == versions.1)
        #expect(try fixture.snapshot(url) == byTriggers.snapshot(copyURL))

        // The triggers log an office edit made after the sync, as before it.
        try ogrSQL(fixture.sourcePath, "UPDATE airports SET type = 'closed' WHERE name = 'Kodiak'")
        #expect(try log(fixture.sourcePath).last?.hasSuffix("|update|0|0") == true)
    }

    /// A sync that stops on a conflict rolls the dropped triggers back with the rest.
    @Test func aStoppedUploadLeavesTheTriggersAndTheLogAsTheyWere() throws {
        let fixture = try SyncFixture()
        let url = try fixture.makePackage()
        try edit(url.appendingPathComponent("data.gpkg").path)
        try ogrSQL(fixture.sourcePath, "UPDATE airports SET type = 'office' WHERE name = 'Kodiak'")
        let (before, logBefore) = (try triggers(fixture.sourcePath), try log(fixture.sourcePath))

        let report = try fixture.sync(url, policy: .fail)
        #expect(report.status == .stoppedOnConflicts && !report.conflicts.isEmpty, "\(report)")
        #expect(try triggers(fixture.sourcePath) == before)
        #expect(try log(fixture.sourcePath) == logBefore)
    }
}
