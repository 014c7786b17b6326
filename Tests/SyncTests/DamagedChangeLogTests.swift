import Foundation
import PkgBuildCLI
import TestSupport
import Testing

/// A change log row whose operation is none of insert, update and delete (written past the
/// table's CHECK by another tool) stops the sync with an error naming the log, the row and
/// the value, before anything is written: such a change must not be taken for an update.
@Suite struct DamagedChangeLogTests {
    enum Side: String, CaseIterable { case package, source }

    @Test(arguments: Side.allCases)
    func anUnknownOperationInAChangeLogStopsTheSyncChangingNothing(_ side: Side) throws {
        let fixture = try SyncFixture()
        let url = try fixture.makePackage()
        let data = url.appendingPathComponent("data.gpkg").path
        let (path, log) = side == .package ? (data, "pkgbuild_edits") : (fixture.sourcePath, "pkgbuild_changes")
        let globalID = try #require(try fixture.openPackage(url).connection
            .scalar("SELECT globalid FROM airports WHERE name = 'Kodiak'")?.stringValue)
        // An ordinary edit logs its change; then the log row is damaged past its CHECK.
        let damaged = try pythonSQLite(path, """
            UPDATE airports SET type = 'field' WHERE name = 'Kodiak';
            PRAGMA ignore_check_constraints = ON;
            UPDATE \(log) SET operation = 'upsert' WHERE globalid = '\(globalID)'
            """)
        #expect(damaged.status == 0, "\(damaged.stderr)")

        try expectSyncStops(fixture, url, saying: "\(log): the change of 'airports' row \(globalID) has the unknown operation 'upsert'")
    }

    /// The sync exits 1 with `message`, and neither file changed (their `sqlite3 .dump`).
    func expectSyncStops(_ fixture: SyncFixture, _ url: URL, saying message: String,
                         sourceLocation: SourceLocation = #_sourceLocation) throws {
        let data = url.appendingPathComponent("data.gpkg").path
        let packageBefore = try sqliteDump(data), sourceBefore = try sqliteDump(fixture.sourcePath)
        let result = CLI.run(["sync", url.path, "--source", fixture.sourcePath])
        #expect(result.exitCode == 1, "\(result.stdout) \(result.stderr)", sourceLocation: sourceLocation)
        #expect(result.stderr.contains(message), "\(result.stderr)", sourceLocation: sourceLocation)
        #expect(try sqliteDump(data) == packageBefore, "the package changed", sourceLocation: sourceLocation)
        #expect(try sqliteDump(fixture.sourcePath) == sourceBefore, "the source changed", sourceLocation: sourceLocation)
    }

    /// A change of a table the package does not track (a log row written by hand, or a table
    /// renamed in the log) is never uploaded; clearing the upload would drop it unseen.
    @Test func aChangeOfAnUntrackedTableStopsTheSyncChangingNothing() throws {
        let fixture = try SyncFixture()
        let url = try fixture.makePackage()
        let data = url.appendingPathComponent("data.gpkg").path
        let edited = try pythonSQLite(data, """
            UPDATE airports SET type = 'field' WHERE name = 'Kodiak';
            UPDATE pkgbuild_edits SET table_name = 'Airports_old' WHERE table_name = 'airports'
            """)
        #expect(edited.status == 0, "\(edited.stderr)")
        try expectSyncStops(fixture, url, saying: "pkgbuild_edits holds 1 change(s) of table 'Airports_old', which the package does not track")
    }
}
