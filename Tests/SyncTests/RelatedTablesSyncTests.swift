import Foundation
import Geodatabase
import SQLite
@testable import Sync
import TestSupport
import Testing

/// Links of a Related Tables mapping table (`trees_inspections`: base_id = trees.fid,
/// related_id = inspections.fid) as pairs of what they link: a tree's tag and an inspection's
/// note, read through each database's own fids.
func treeLinks(_ connection: Connection) throws -> [String] {
    try connection.query("""
        SELECT t.tag || ' > ' || i.note FROM trees_inspections m
        JOIN trees t ON t.fid = m.base_id JOIN inspections i ON i.fid = m.related_id ORDER BY 1
        """).compactMap { $0[0].stringValue }
}

/// Mapping tables keyed by fid, synced through global ids; related rows of rows entering the area.
///
/// testdata/fixtures/geodatabase/related.gpkg: trees 1 (T1, at 7.1 46.2), 2 (T2) and 3 (T3, at
/// 7.3 46.4); inspections 1 'healthy', 2 'dead branch' (of T1) and 3 'fungus' (of T3). The area
/// around T1 takes T1, its two inspections and their links.
@Suite struct RelatedTablesSyncTests {
    static let area = (minX: 7.05, minY: 46.15, maxX: 7.15, maxY: 46.25)

    func makeFixture() throws -> (SyncFixture, URL, Connection, Connection) {
        let fixture = try SyncFixture(source: "fixtures/geodatabase/related.gpkg")
        let url = try fixture.makePackage(box: Self.area)
        let package = try fixture.openPackage(url).connection
        let source = try fixture.openSource().connection
        try #require(try treeLinks(package) == ["T1 > dead branch", "T1 > healthy"])
        return (fixture, url, package, source)
    }

    @Test func aLinkAddedOfflineToANewInspectionReachesTheSourceWithTheSourcesFids() throws {
        let (fixture, url, package, source) = try makeFixture()
        // The package numbers the new inspection 3: at the source, 3 is T3's 'fungus'.
        try package.execute("INSERT INTO inspections (note) VALUES ('bark beetle')")
        let packageFID = try #require(try package.scalar("SELECT fid FROM inspections WHERE note = 'bark beetle'")?.int64Value)
        #expect(packageFID == 3)
        try package.execute("INSERT INTO trees_inspections (base_id, related_id) VALUES (1, ?)", [.integer(packageFID)])

        let report = try fixture.sync(url)
        #expect(report.status == .completed && report.uploaded.inserted == 2, "\(report.conflicts)")
        let sourceFID = try #require(try source.scalar("SELECT fid FROM inspections WHERE note = 'bark beetle'")?.int64Value)
        #expect(sourceFID == 4)
        #expect(try source.scalar("SELECT count(*) FROM trees_inspections WHERE base_id = 1 AND related_id = ?", [.integer(sourceFID)]) == 1)
        #expect(try treeLinks(source) == ["T1 > bark beetle", "T1 > dead branch", "T1 > healthy", "T3 > fungus"])
        // The link keeps its global id on both sides, and the package's fids are untouched.
        let id = "SELECT globalid FROM trees_inspections WHERE related_id = ?"
        #expect(try package.scalar(id, [.integer(packageFID)]) == source.scalar(id, [.integer(sourceFID)]))
        #expect(try treeLinks(package) == ["T1 > bark beetle", "T1 > dead branch", "T1 > healthy"])
        #expect(try PackageChangeTracking(connection: package).pendingChanges().isEmpty)
        let again = try fixture.sync(url)
        #expect(again.uploaded.total == 0 && again.downloaded.total == 0)
        try fixture.expectGDALValid(url)
    }

    @Test func aLinkRemovedOfflineLeavesTheSource() throws {
        let (fixture, url, package, source) = try makeFixture()
        let gone = try #require(try package.scalar("SELECT globalid FROM trees_inspections WHERE base_id = 1 AND related_id = 2"))
        try package.execute("DELETE FROM trees_inspections WHERE base_id = 1 AND related_id = 2")
        let report = try fixture.sync(url)
        #expect(report.status == .completed && report.uploaded.deleted == 1)
        #expect(try source.scalar("SELECT count(*) FROM trees_inspections WHERE globalid = ?", [gone]) == 0)
        #expect(try source.query("SELECT base_id, related_id FROM trees_inspections ORDER BY 1, 2").map { "\($0[0])-\($0[1])" }
            == ["1-1", "3-3"])
        #expect(try treeLinks(source) == ["T1 > healthy", "T3 > fungus"])
        try fixture.expectGDALValid(url)
    }

    @Test func aLinkRelinkedOfflineGoesUpByTheRowsItPointsTo() throws {
        let (fixture, url, package, source) = try makeFixture()
        // An offline inspection (package fid 3) takes over the 'dead branch' link.
        try package.execute("INSERT INTO inspections (note) VALUES ('pruned')")
        try package.execute("UPDATE trees_inspections SET related_id = 3 WHERE related_id = 2")
        let report = try fixture.sync(url)
        #expect(report.status == .completed, "\(report.conflicts)")
        #expect(try treeLinks(source) == ["T1 > healthy", "T1 > pruned", "T3 > fungus"])
        #expect(try treeLinks(package) == ["T1 > healthy", "T1 > pruned"])
        try fixture.expectGDALValid(url)
    }

    @Test func aLinkAddedAtTheSourceComesDownWithThePackagesFids() throws {
        let (fixture, url, package, source) = try makeFixture()
        // A new inspection of T1 at the source (fid 4 there), linked; and T3's link, not packaged.
        try source.execute("INSERT INTO inspections (note) VALUES ('lightning scar')")
        let sourceFID = try #require(try source.scalar("SELECT fid FROM inspections WHERE note = 'lightning scar'")?.int64Value)
        #expect(sourceFID == 4)
        try source.execute("INSERT INTO trees_inspections (base_id, related_id) VALUES (1, ?)", [.integer(sourceFID)])
        try source.execute("INSERT INTO trees_inspections (base_id, related_id) VALUES (3, 1)")
        try source.execute("DELETE FROM trees_inspections WHERE base_id = 1 AND related_id = 1")

        let report = try fixture.sync(url)
        #expect(report.status == .completed && report.downloaded.inserted == 2 && report.downloaded.deleted == 1, "\(report)")
        let packageFID = try #require(try package.scalar("SELECT fid FROM inspections WHERE note = 'lightning scar'")?.int64Value)
        #expect(packageFID == 3)
        #expect(try package.scalar("SELECT count(*) FROM trees_inspections WHERE base_id = 1 AND related_id = ?", [.integer(packageFID)]) == 1)
        #expect(try treeLinks(package) == ["T1 > dead branch", "T1 > lightning scar"])
        #expect(try package.scalar("SELECT count(*) FROM trees_inspections") == 2)
        // Nothing the download wrote is a local edit.
        #expect(try PackageChangeTracking(connection: package).pendingChanges().isEmpty)
        try fixture.expectGDALValid(url)
    }

    @Test func aTreeMovingIntoTheAreaBringsItsInspectionsAndLinks() throws {
        let (fixture, url, package, source) = try makeFixture()
        // T3 moves next to T1 at the source; neither 'fungus' nor its link changed.
        try source.execute("UPDATE trees SET geom = ? WHERE tag = 'T3'", [pointBlob(7.11, 46.21)])
        let report = try fixture.sync(url)
        #expect(report.status == .completed && report.downloaded.inserted == 3, "\(report)")
        #expect(try treeLinks(package) == ["T1 > dead branch", "T1 > healthy", "T3 > fungus"])
        #expect(try PackageChangeTracking(connection: package).pendingChanges().isEmpty)
        try fixture.expectGDALValid(url)
    }
}
