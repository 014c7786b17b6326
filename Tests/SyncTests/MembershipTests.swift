import Foundation
import Geodatabase
import PkgBuildCLI
import SQLite
@testable import Sync
import TestSupport
import Testing

/// After a sync a row belongs to the package when the source's row meets the area and the
/// layer's filter, or is related to a member; rows that do not leave, whoever changed them,
/// each listed in the report with why. The source keeps them.
@Suite struct MembershipTests {
    func departure(_ report: SyncReport, _ fixture: SyncFixture, name: String) throws -> DepartedRow? {
        let globalID = try fixture.openSource().connection.scalar("SELECT globalid FROM airports WHERE name = ?", [.text(name)])
        return report.left.first { $0.globalID == globalID?.stringValue }
    }

    @Test func aRowEditedOfflineOutOfItsFilterLeaves() throws {
        let fixture = try SyncFixture()
        let url = try fixture.makePackage(arguments: ["--where", "airports:type = 'major'"])
        try ogrSQL(url.appendingPathComponent("data.gpkg").path, "UPDATE airports SET type = 'closed' WHERE name = 'Anchorage Int''l'")
        let report = try fixture.sync(url)
        #expect(report.status == .completed && report.uploaded.updated == 1)
        #expect(try fixture.openSource().connection.scalar("SELECT type FROM airports WHERE name = 'Anchorage Int''l'") == "closed")
        #expect(try fixture.openPackage(url).connection.scalar("SELECT count(*) FROM airports WHERE name = 'Anchorage Int''l'") == 0)
        #expect(try departure(report, fixture, name: "Anchorage Int'l")?.reason.contains("filter") == true, "\(report.left)")
    }

    @Test func rowsAddedWithoutGeometryOrMovedAwayLeaveWithAWord() throws {
        let fixture = try SyncFixture()
        let url = try fixture.makePackage()
        let data = url.appendingPathComponent("data.gpkg").path
        try ogrSQL(data, "INSERT INTO airports (name, type) VALUES ('No geometry', 'small')")
        try ogrSQL(data, "UPDATE airports SET geom = AsGPB(MakePoint(10, 50, 4326)) WHERE name = 'Kodiak'")
        let report = try fixture.sync(url)
        #expect(report.status == .completed && report.uploaded.inserted == 1 && report.uploaded.updated == 1, "\(report)")
        #expect(try departure(report, fixture, name: "No geometry")?.reason.contains("no geometry") == true, "\(report.left)")
        #expect(try departure(report, fixture, name: "Kodiak")?.reason.contains("outside the package's area") == true)
        let source = try fixture.openSource().connection
        #expect(try source.scalar("SELECT count(*) FROM airports WHERE name IN ('No geometry', 'Kodiak')") == 2)
        let package = try fixture.openPackage(url).connection
        #expect(try package.scalar("SELECT count(*) FROM airports WHERE name IN ('No geometry', 'Kodiak')") == 0)
        #expect(try PackageChangeTracking(connection: package).pendingChanges().isEmpty)
    }

    /// `edit` says beforehand when an edit will make its row leave, and stays silent otherwise.
    @Test func editWarnsWhenItsRowWillLeave() throws {
        let fixture = try SyncFixture()
        let url = try fixture.makePackage(arguments: ["--where", "airports:type IN ('major', 'mid')"])
        let id = try #require(try fixture.openPackage(url).connection
            .scalar("SELECT fid FROM airports WHERE name = 'Kodiak'")?.int64Value)
        let stays = CLI.run(["edit", url.path, "--layer", "airports", "--id", "\(id)", "--set", "type=major"])
        #expect(stays.exitCode == 0 && !stays.stderr.contains("will leave"), "\(stays.stderr)")
        let filtered = CLI.run(["edit", url.path, "--layer", "airports", "--id", "\(id)", "--set", "type=closed"])
        #expect(filtered.exitCode == 0 && filtered.stderr.contains("will leave the package") && filtered.stderr.contains("filter"),
                "\(filtered.stderr)")
        _ = CLI.run(["edit", url.path, "--layer", "airports", "--id", "\(id)", "--set", "type=mid"])
        let moved = CLI.run(["edit", url.path, "--layer", "airports", "--id", "\(id)", "--move", "10,50"])
        #expect(moved.exitCode == 0 && moved.stderr.contains("outside the package's area"), "\(moved.stderr)")
        // And so it does: the sync lists it.
        let report = try fixture.sync(url)
        #expect(report.left.count == 1 && report.left.first?.reason.contains("outside") == true, "\(report.left)")
    }
}
