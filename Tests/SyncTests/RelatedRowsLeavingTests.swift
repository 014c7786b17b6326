import Extract
import Foundation
import Geodatabase
import Geometry
import PackageFormat
import SQLite
@testable import Sync
import TestSupport
import Testing

/// Related-only rows (in the package only because a row chosen by area relates to them) leave
/// with the last such row, unless they have a pending local edit; links whose ends left leave.
@Suite struct RelatedRowsLeavingTests {
    static func units(_ connection: Connection, _ table: String) throws -> [String] {
        try connection.query("SELECT unit_code FROM \(table) ORDER BY 1").compactMap { $0[0].stringValue }
    }

    @Test func visitorsLeaveWithTheirParkMovedOutOrDeletedAtTheSource() throws {
        let fixture = try SyncFixture()
        let url = try fixture.makePackage()
        let package = try fixture.openPackage(url).connection
        let source = try fixture.openSource().connection
        let before = try Self.units(package, "park_visitors")
        try #require(["DENA", "KEFJ", "LACL"].allSatisfy(before.contains))
        let sourceVisitors = try contents(source, "park_visitors")
        // DENA takes BELA's outline (outside the area); KEFJ is deleted. Neither visitors row changes.
        try source.execute("UPDATE parks SET geom = (SELECT geom FROM parks WHERE unit_code = 'BELA') WHERE unit_code = 'DENA'")
        try source.execute("DELETE FROM parks WHERE unit_code = 'KEFJ'")

        let report = try fixture.sync(url)
        #expect(report.status == .completed && report.leftArea == 3 && report.downloaded.deleted == 1, "\(report)")
        #expect(try Self.units(package, "park_visitors") == before.filter { $0 != "DENA" && $0 != "KEFJ" })
        #expect(try Self.units(package, "parks").filter { ["DENA", "KEFJ"].contains($0) }.isEmpty)
        // The source keeps its rows; nothing the download removed is a local edit.
        #expect(try contents(source, "park_visitors") == sourceVisitors)
        #expect(try PackageChangeTracking(connection: package).pendingChanges().isEmpty)
        let again = try fixture.sync(url)
        #expect(again.downloaded.total == 0 && again.leftArea == 0)
        try fixture.expectGDALValid(url)
    }

    @Test func visitorsOfAParkDeletedOfflineLeaveOnDownload() throws {
        let fixture = try SyncFixture()
        let url = try fixture.makePackage()
        let package = try fixture.openPackage(url).connection
        let source = try fixture.openSource().connection
        try package.execute("DELETE FROM parks WHERE unit_code = 'LACL'")
        let report = try fixture.sync(url)
        #expect(report.status == .completed && report.uploaded.deleted == 1 && report.leftArea == 1, "\(report)")
        #expect(try source.scalar("SELECT count(*) FROM parks WHERE unit_code = 'LACL'") == 0)
        #expect(try source.scalar("SELECT count(*) FROM park_visitors WHERE unit_code = 'LACL'") == 1)
        #expect(try package.scalar("SELECT count(*) FROM park_visitors WHERE unit_code = 'LACL'") == 0)
        try fixture.expectGDALValid(url)
    }

    @Test func anEditedVisitorsRowStaysWhileItsEditIsPendingAndGoesUp() throws {
        let fixture = try SyncFixture()
        let url = try fixture.makePackage()
        let package = try fixture.openPackage(url).connection
        let source = try fixture.openSource().connection
        try package.execute("UPDATE park_visitors SET survey_year = 2031 WHERE unit_code = 'DENA'")
        try source.execute("UPDATE parks SET geom = (SELECT geom FROM parks WHERE unit_code = 'BELA') WHERE unit_code = 'DENA'")

        // A download-only sync leaves the edit pending: the row stays with it.
        let download = try fixture.sync(url, direction: .download)
        #expect(download.status == .completedWithPending && download.leftArea == 1, "\(download)")
        #expect(try package.scalar("SELECT survey_year FROM park_visitors WHERE unit_code = 'DENA'") == 2031)
        #expect(try package.scalar("SELECT count(*) FROM parks WHERE unit_code = 'DENA'") == 0)
        // The next sync uploads it; then nothing in the package relates to it and it leaves.
        let report = try fixture.sync(url)
        #expect(report.status == .completed && report.uploaded.updated == 1 && report.leftArea == 1, "\(report)")
        #expect(try source.scalar("SELECT survey_year FROM park_visitors WHERE unit_code = 'DENA'") == 2031)
        #expect(try package.scalar("SELECT count(*) FROM park_visitors WHERE unit_code = 'DENA'") == 0)
        #expect(try PackageChangeTracking(connection: package).pendingChanges().isEmpty)
    }

    @Test func inspectionsAndLinksLeaveWithTheirTree() throws {
        let (fixture, url, package, source) = try RelatedTablesSyncTests().makeFixture()
        let sourceInspections = try contents(source, "inspections")
        // T1 moves next to T3 at the source: its inspections and links do not change.
        try source.execute("UPDATE trees SET geom = ? WHERE tag = 'T1'", [pointBlob(7.31, 46.41)])
        let report = try fixture.sync(url)
        #expect(report.status == .completed && report.leftArea == 5, "\(report)")
        #expect(try package.scalar("SELECT count(*) FROM trees") == 0)
        #expect(try package.scalar("SELECT count(*) FROM inspections") == 0)
        #expect(try package.scalar("SELECT count(*) FROM trees_inspections") == 0)
        #expect(try contents(source, "inspections") == sourceInspections)
        #expect(try treeLinks(source) == ["T1 > dead branch", "T1 > healthy", "T3 > fungus"])
        #expect(try PackageChangeTracking(connection: package).pendingChanges().isEmpty)
        try fixture.expectGDALValid(url)
    }

    @Test func anEditedInspectionOfADeletedTreeStaysWhilePendingAndGoesUp() throws {
        let (fixture, url, package, source) = try RelatedTablesSyncTests().makeFixture()
        try package.execute("UPDATE inspections SET note = 'healthy, rechecked' WHERE note = 'healthy'")
        try source.execute("DELETE FROM trees WHERE tag = 'T1'")

        let download = try fixture.sync(url, direction: .download)
        #expect(download.status == .completedWithPending, "\(download)")
        #expect(try package.query("SELECT note FROM inspections").compactMap { $0[0].stringValue } == ["healthy, rechecked"])
        #expect(try package.scalar("SELECT count(*) FROM trees_inspections") == 0)
        #expect(try package.scalar("SELECT count(*) FROM trees") == 0)

        let report = try fixture.sync(url)
        #expect(report.status == .completed && report.uploaded.updated == 1, "\(report)")
        #expect(try source.scalar("SELECT count(*) FROM inspections WHERE note = 'healthy, rechecked'") == 1)
        #expect(try source.scalar("SELECT count(*) FROM inspections") == 3)
        #expect(try package.scalar("SELECT count(*) FROM inspections") == 0)
        #expect(try PackageChangeTracking(connection: package).pendingChanges().isEmpty)
    }

    @Test func aParksNewUnitCodeSwapsItsVisitorsRow() throws {
        let fixture = try SyncFixture()
        let url = try fixture.makePackage()
        let package = try fixture.openPackage(url).connection
        let source = try fixture.openSource().connection
        try #require(try package.scalar("SELECT count(*) FROM park_visitors WHERE unit_code = 'NOAT'") == 0)
        // Only the park changes at the source: DENA's visitors row leaves, NOAT's comes.
        try source.execute("UPDATE parks SET unit_code = 'NOAT' WHERE unit_code = 'DENA'")
        let report = try fixture.sync(url)
        #expect(report.status == .completed && report.downloaded.updated == 1 && report.downloaded.inserted == 1
                && report.leftArea == 1, "\(report)")
        #expect(try package.scalar("SELECT annual_visitors FROM park_visitors WHERE unit_code = 'NOAT'") == "1,000-10,000")
        #expect(try package.scalar("SELECT count(*) FROM park_visitors WHERE unit_code = 'DENA'") == 0)
        #expect(try source.scalar("SELECT count(*) FROM park_visitors WHERE unit_code IN ('DENA', 'NOAT')") == 2)
        #expect(try PackageChangeTracking(connection: package).pendingChanges().isEmpty)
    }

    @Test func aParksUnitCodeChangedOfflineSwapsItsVisitorsRow() throws {
        let fixture = try SyncFixture()
        let url = try fixture.makePackage()
        let package = try fixture.openPackage(url).connection
        let source = try fixture.openSource().connection
        try package.execute("UPDATE parks SET unit_code = 'NOAT' WHERE unit_code = 'LACL'")
        let report = try fixture.sync(url)
        #expect(report.status == .completed && report.uploaded.updated == 1 && report.downloaded.inserted == 1
                && report.leftArea == 1, "\(report)")
        #expect(try source.scalar("SELECT count(*) FROM parks WHERE unit_code = 'LACL'") == 0)
        #expect(try package.scalar("SELECT annual_visitors FROM park_visitors WHERE unit_code = 'NOAT'") == "1,000-10,000")
        #expect(try package.scalar("SELECT count(*) FROM park_visitors WHERE unit_code = 'LACL'") == 0)
        #expect(try source.scalar("SELECT count(*) FROM park_visitors WHERE unit_code IN ('LACL', 'NOAT')") == 2)
        #expect(try PackageChangeTracking(connection: package).pendingChanges().isEmpty)
        let again = try fixture.sync(url)
        #expect(again.downloaded.total == 0 && again.leftArea == 0 && again.uploaded.total == 0)
    }

    @Test func aLinkAddedAtTheSourceToAnUnpackagedInspectionBringsIt() throws {
        let (fixture, url, package, source) = try RelatedTablesSyncTests().makeFixture()
        // 'fungus' (T3's, not packaged) is linked to T1 too; the inspection itself does not change.
        try source.execute("INSERT INTO trees_inspections (base_id, related_id) VALUES (1, 3)")
        let report = try fixture.sync(url)
        #expect(report.status == .completed && report.downloaded.inserted == 2, "\(report)")
        #expect(try treeLinks(package) == ["T1 > dead branch", "T1 > fungus", "T1 > healthy"])
        #expect(try PackageChangeTracking(connection: package).pendingChanges().isEmpty)
        // Unlinked from T1 again at the source: the link and the inspection leave.
        try source.execute("DELETE FROM trees_inspections WHERE base_id = 1 AND related_id = 3")
        let again = try fixture.sync(url)
        #expect(again.status == .completed && again.downloaded.deleted == 1 && again.leftArea == 1, "\(again)")
        #expect(try treeLinks(package) == ["T1 > dead branch", "T1 > healthy"])
        #expect(try package.scalar("SELECT count(*) FROM inspections WHERE note = 'fungus'") == 0)
        #expect(try treeLinks(source) == ["T1 > dead branch", "T1 > healthy", "T3 > fungus"])
    }

    @Test func aRelatedOnlyTableCreateTookNoRowsOfTakesOnlyRelatedRows() throws {
        let fixture = try SyncFixture()
        // Open sea: no park, so no visitors row either.
        let url = try fixture.makePackage(box: (-179, 45, -175, 47))
        let package = try fixture.openPackage(url).connection
        let source = try fixture.openSource().connection
        #expect(try package.scalar("SELECT count(*) FROM park_visitors") == 0)
        #expect(try package.scalar("SELECT related_only FROM pkgbuild_layers WHERE table_name = 'park_visitors'") == 1)
        #expect(try package.scalar("SELECT related_only FROM pkgbuild_layers WHERE table_name = 'parks'") == 0)
        let manifest = try PackageManifest.read(from: url.appendingPathComponent(PackageManifest.fileName))
        #expect(manifest.layers.first { $0.name == "park_visitors" }?.cut.relatedOnly == true)

        try source.execute("INSERT INTO park_visitors (unit_code, annual_visitors) VALUES ('ZZZZ', 'none')")
        let report = try fixture.sync(url)
        #expect(report.status == .completed && report.downloaded.total == 0, "\(report)")
        #expect(try package.scalar("SELECT count(*) FROM park_visitors") == 0)
        // A park at sea and its visitors row do come down.
        // A MULTIPOLYGON, as the layer declares: a download writes only what the column takes.
        let seaPark = try Geometry(wkt: "MULTIPOLYGON (((-177.1 45.9, -176.9 45.9, -176.9 46.1, -177.1 45.9)))")
        try source.execute("INSERT INTO parks (geom, unit_code, name) VALUES (?, 'YYYY', 'Sea park')",
                           [.blob(GeoPackageBinary(geometry: seaPark, srsID: 4326).encoded())])
        try source.execute("INSERT INTO park_visitors (unit_code, annual_visitors) VALUES ('YYYY', 'few')")
        let second = try fixture.sync(url)
        #expect(second.status == .completed && second.downloaded.inserted == 2, "\(second)")
        #expect(try Self.units(package, "park_visitors") == ["YYYY"])
    }
}
