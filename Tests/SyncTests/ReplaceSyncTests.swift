import Foundation
import Geodatabase
import SQLite
@testable import Sync
import TestSupport
import Testing

/// A field app or an office script on Python's sqlite3 (`recursive_triggers` off) writes
/// `INSERT OR REPLACE`; after a sync both sides hold exactly what a delete plus an insert gives.
@Suite struct ReplaceSyncTests {
    func globalIDs(_ connection: Connection, _ table: String) throws -> Set<String> {
        Set(try connection.query("SELECT globalid FROM \(table)").compactMap { $0[0].stringValue })
    }

    @Test func aReplaceInThePackageDeletesTheOldRowAtTheSource() throws {
        let fixture = try SyncFixture()
        let url = try fixture.makePackage()
        let package = try fixture.openPackage(url).connection
        let source = try fixture.openSource().connection
        let kodiak = try #require(try package.scalar("SELECT globalid FROM airports WHERE name = 'Kodiak'")?.stringValue)
        let fid = try #require(try package.scalar("SELECT fid FROM airports WHERE name = 'Kodiak'")?.int64Value)
        let result = try pythonSQLite(url.appendingPathComponent("data.gpkg").path, """
            INSERT OR REPLACE INTO airports (fid, geom, name, type) SELECT fid, geom, 'Kodiak rebuilt', 'small' FROM airports WHERE fid = \(fid)
            """)
        #expect(result.status == 0, "\(result.stderr)")
        let report = try fixture.sync(url)
        #expect(report.status == .completed, "\(report)")
        #expect(try source.scalar("SELECT count(*) FROM airports WHERE globalid = ?", [.text(kodiak)]) == 0)
        #expect(try source.scalar("SELECT count(*) FROM airports WHERE name LIKE 'Kodiak%'") == 1)
        #expect(try source.scalar("SELECT type FROM airports WHERE name = 'Kodiak rebuilt'") == "small")
        #expect(try globalIDs(package, "airports") == globalIDs(source, "airports").intersection(globalIDs(package, "airports")))
        #expect(try PackageChangeTracking(connection: package).pendingChanges().isEmpty)
    }

    @Test func aReplaceAtTheSourceRemovesTheOldRowFromThePackage() throws {
        let fixture = try SyncFixture()
        let url = try fixture.makePackage()
        let package = try fixture.openPackage(url).connection
        let source = try fixture.openSource().connection
        let kodiak = try #require(try source.scalar("SELECT globalid FROM airports WHERE name = 'Kodiak'")?.stringValue)
        let result = try pythonSQLite(fixture.sourcePath, """
            INSERT OR REPLACE INTO airports (fid, geom, name, type) SELECT fid, geom, 'Kodiak rebuilt', 'small' FROM airports WHERE name = 'Kodiak';
            INSERT OR REPLACE INTO airports (fid, geom, name, type, globalid) SELECT fid, geom, name, 'renamed in place', globalid FROM airports WHERE name LIKE 'Fairbanks%'
            """)
        #expect(result.status == 0, "\(result.stderr)")
        let report = try fixture.sync(url)
        #expect(report.status == .completed, "\(report)")
        #expect(try package.scalar("SELECT count(*) FROM airports WHERE globalid = ?", [.text(kodiak)]) == 0)
        #expect(try package.scalar("SELECT count(*) FROM airports WHERE name LIKE 'Kodiak%'") == 1)
        #expect(try package.scalar("SELECT type FROM airports WHERE name LIKE 'Fairbanks%'") == "renamed in place")
        let snapshot = try fixture.snapshot(url)
        let packaged = try #require(snapshot["package.airports"])
        for (id, row) in packaged { #expect(snapshot["source.airports"]?[id] == row, "\(id)") }
    }
}
