import Foundation
import Geodatabase
import PkgBuildCLI
import SQLite
@testable import Sync
import TestSupport
import Testing

/// Columns added at the source travel; any other schema difference is refused by name, with
/// nothing changed and the pending edits still exportable. Columns are added and edited the
/// way the office does it: with GDAL (`ogrinfo -sql`) and sqlite3.
@Suite struct SchemaEvolutionTests {
    func gdal(_ path: String, _ sql: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let result = try runProcess("ogrinfo", ["-q", path, "-sql", sql])
        #expect(result.status == 0 && !result.stderr.contains("ERROR"), "ogrinfo -sql \(sql): \(result.stderr)",
                sourceLocation: sourceLocation)
    }

    func dump(_ path: String) throws -> String { try runProcess("sqlite3", [path, ".dump"]).stdout }

    @Test func aColumnAddedAtTheSourceReachesAnExistingPackageWithItsEditsKept() throws {
        let fixture = try SyncFixture()
        let url = try fixture.makePackage()
        let package = try fixture.openPackage(url).connection
        try package.execute("UPDATE airports SET type = 'offline edit' WHERE name = 'Kodiak'")
        try package.execute("DELETE FROM airports WHERE name LIKE 'Fairbanks%'")
        try gdal(fixture.sourcePath, "ALTER TABLE airports ADD COLUMN runway TEXT")
        try gdal(fixture.sourcePath, "UPDATE airports SET runway = 'K-1' WHERE name = 'Kodiak'")
        try gdal(fixture.sourcePath, "UPDATE airports SET runway = 'A-7' WHERE name LIKE 'Anchorage%'")

        let report = try fixture.sync(url)
        #expect(report.status == .completed, "\(report)")
        let source = try fixture.openSource().connection
        #expect(try package.scalar("SELECT runway FROM airports WHERE name = 'Kodiak'") == "K-1")
        #expect(try package.scalar("SELECT runway FROM airports WHERE name LIKE 'Anchorage%'") == "A-7")
        #expect(try source.scalar("SELECT type FROM airports WHERE name = 'Kodiak'") == "offline edit")
        #expect(try source.scalar("SELECT runway FROM airports WHERE name = 'Kodiak'") == "K-1")
        #expect(try source.scalar("SELECT count(*) FROM airports WHERE name LIKE 'Fairbanks%'") == 0)

        // The source's triggers now watch the column: a later office edit of it comes down,
        // and an offline edit of it goes up.
        try gdal(fixture.sourcePath, "UPDATE airports SET runway = 'K-2' WHERE name = 'Kodiak'")
        try package.execute("UPDATE airports SET runway = 'A-8' WHERE name LIKE 'Anchorage%'")
        #expect(try fixture.sync(url).status == .completed)
        #expect(try package.scalar("SELECT runway FROM airports WHERE name = 'Kodiak'") == "K-2")
        #expect(try source.scalar("SELECT runway FROM airports WHERE name LIKE 'Anchorage%'") == "A-8")
        try fixture.expectGDALValid(url)
    }

    @Test func createWatchesAColumnAddedAfterEnable() throws {
        let fixture = try SyncFixture()
        let add = try runProcess("sqlite3", [fixture.sourcePath, "ALTER TABLE airports ADD COLUMN runway TEXT"])
        #expect(add.status == 0, "\(add.stderr)")
        let url = try fixture.makePackage()
        let package = try fixture.openPackage(url).connection
        try gdal(fixture.sourcePath, "UPDATE airports SET runway = 'K-1' WHERE name = 'Kodiak'")
        #expect(try fixture.sync(url).status == .completed)
        #expect(try package.scalar("SELECT runway FROM airports WHERE name = 'Kodiak'") == "K-1")
    }

    @Test func aColumnAddedInThePackageOnlyIsRefusedByNameAndEditsStayExportable() throws {
        let fixture = try SyncFixture()
        let url = try fixture.makePackage()
        let data = url.appendingPathComponent("data.gpkg").path
        try gdal(data, "ALTER TABLE airports ADD COLUMN notes TEXT")
        try gdal(data, "UPDATE airports SET notes = 'field note', type = 'edited' WHERE name = 'Kodiak'")
        let before = (try dump(data), try dump(fixture.sourcePath))

        let result = CLI.run(["sync", url.path, "--source", fixture.sourcePath])
        #expect(result.exitCode == 1, "\(result.stderr)")
        #expect(result.stderr.contains("airports.notes") && result.stderr.contains("package"), "\(result.stderr)")
        #expect(!result.stderr.contains("dropped at the source"), "\(result.stderr)")
        #expect(try dump(data) == before.0)
        #expect(try dump(fixture.sourcePath) == before.1)

        let changeset = fixture.directory.path("edits.changeset")
        let changes = CLI.run(["changes", url.path, "--changeset", changeset])
        #expect(changes.exitCode == 0, "\(changes.stderr)")
        #expect(changes.stdout.contains("Kodiak") || changes.stdout.contains("airports"), "\(changes.stdout)")
        #expect(FileManager.default.fileExists(atPath: changeset))
    }

    @Test func aDryRunWritesNothingWhenTheSourceGainedAColumn() throws {
        let fixture = try SyncFixture()
        let url = try fixture.makePackage()
        let data = url.appendingPathComponent("data.gpkg").path
        try gdal(fixture.sourcePath, "ALTER TABLE airports ADD COLUMN runway TEXT")
        let before = try dump(data)
        #expect(throws: SyncError.self) { try fixture.sync(url, dryRun: true) }
        #expect(try dump(data) == before)
    }

    /// A column of a tracked table cannot be dropped on either side: the change triggers name
    /// every column, so SQLite refuses the DROP (GDAL's and Python's alike) and nothing changes.
    @Test func droppingATrackedColumnIsRefusedOnBothSides() throws {
        let fixture = try SyncFixture()
        let url = try fixture.makePackage()
        for path in [fixture.sourcePath, url.appendingPathComponent("data.gpkg").path] {
            let before = try dump(path)
            let byGDAL = try runProcess("ogrinfo", ["-q", path, "-sql", "ALTER TABLE airports DROP COLUMN gps_code"])
            #expect(byGDAL.stderr.contains("no such column"), "\(byGDAL.stderr)")
            let byPython = try pythonSQLite(path, "ALTER TABLE airports DROP COLUMN gps_code")
            #expect(byPython.status != 0, "\(byPython.stdout)")
            #expect(try dump(path) == before)
        }
    }

    /// A column renamed at the source (SQLite rewrites the triggers, so the rename goes
    /// through) is a schema difference: the sync refuses naming the column and the source's
    /// new name, changes nothing, and the package's edit of that column stays pending.
    @Test func aColumnRenamedAtTheSourceIsRefusedByNameWithTheEditKept() throws {
        let fixture = try SyncFixture()
        let url = try fixture.makePackage()
        let data = url.appendingPathComponent("data.gpkg").path
        try gdal(data, "UPDATE airports SET type = 'edited' WHERE name = 'Kodiak'")
        #expect(try pythonSQLite(fixture.sourcePath, "ALTER TABLE airports RENAME COLUMN type TO kind").status == 0)
        let before = (try dump(data), try dump(fixture.sourcePath))

        let result = CLI.run(["sync", url.path, "--source", fixture.sourcePath])
        #expect(result.exitCode == 1, "\(result.stderr)")
        #expect(result.stderr.contains("airports.type") && result.stderr.contains("renamed")
                && result.stderr.contains("kind"), "\(result.stderr)")
        #expect(try dump(data) == before.0)
        #expect(try dump(fixture.sourcePath) == before.1)
        let pending = try PackageChangeTracking(connection: fixture.openPackage(url).connection).pendingChanges()
        #expect(pending.map(\.changedColumns) == [["type"]], "\(pending)")
    }
}
