import Foundation
import Geodatabase
import SQLite
import SourceDrivers
@testable import Sync
import TestSupport
import Testing

/// A Related Tables mapping table keyed by each database's own keys (see
/// RelatedTablesSyncTests), with both drivers: the in-memory source numbers its rows itself,
/// so links go up and come down through global ids, never through the package's fids. Not
/// PostgreSQL: a PostGIS source relates tables by foreign keys, it has no mapping tables.
@Suite struct InMemoryRelatedTests {
    static func fixture(_ backend: SourceBackend) throws -> SourceBackendFixture {
        let f = try SourceBackendFixture(backend, source: "fixtures/geodatabase/related.gpkg", box: RelatedTablesSyncTests.area)
        try #require(try treeLinks(f.base.openPackage(f.url).connection) == ["T1 > dead branch", "T1 > healthy"])
        return f
    }

    func globalID(_ connection: Connection, _ sql: String) throws -> String {
        try #require(try connection.scalar(sql)?.stringValue, "\(sql)")
    }

    @Test(arguments: SourceBackend.withoutPostgreSQL)
    func aLinkAddedOfflineToANewInspectionGoesUpWithTheSourcesKeys(_ backend: SourceBackend) throws {
        let f = try Self.fixture(backend)
        let package = try f.base.openPackage(f.url).connection
        try package.execute("INSERT INTO inspections (note) VALUES ('bark beetle')")
        try package.execute("INSERT INTO trees_inspections (base_id, related_id) SELECT 1, fid FROM inspections WHERE note = 'bark beetle'")
        let report = try f.sync()
        #expect(report.status == .completed && report.uploaded.inserted == 2, "\(report)")
        let inspection = try globalID(package, "SELECT globalid FROM inspections WHERE note = 'bark beetle'")
        let tree = try globalID(package, "SELECT globalid FROM trees WHERE tag = 'T1'")
        let link = try globalID(package, "SELECT globalid FROM trees_inspections WHERE related_id = (SELECT fid FROM inspections WHERE note = 'bark beetle')")
        let sourceLink = try #require(try f.sourceRow("trees_inspections", named: link, column: "globalid"))
        // The source numbered the inspection 4 (3 is T3's 'fungus' there): the link says so.
        #expect(try f.sourceKey("inspections", globalID: inspection) == .integer(4))
        #expect(sourceLink["related_id"] == .integer(4))
        #expect(try sourceLink["base_id"] == f.sourceKey("trees", globalID: tree))
        #expect(try treeLinks(package) == ["T1 > bark beetle", "T1 > dead branch", "T1 > healthy"])
        let again = try f.sync()
        #expect(again.uploaded.total == 0 && again.downloaded.total == 0, "\(again)")
    }

    @Test(arguments: SourceBackend.withoutPostgreSQL)
    func aLinkAddedAtTheSourceComesDownWithThePackagesFids(_ backend: SourceBackend) throws {
        let f = try Self.fixture(backend)
        let package = try f.base.openPackage(f.url).connection
        let inspection = GlobalID.make()
        try f.officeInsert("inspections", [("globalid", .text(inspection)), ("note", .text("lightning scar"))])
        let key = try #require(try f.sourceKey("inspections", globalID: inspection))
        let tree = try #require(try f.sourceKey("trees", globalID: globalID(package, "SELECT globalid FROM trees WHERE tag = 'T1'")))
        try f.officeInsert("trees_inspections", [("globalid", .text(GlobalID.make())), ("base_id", tree), ("related_id", key)])
        let report = try f.sync()
        #expect(report.status == .completed && report.downloaded.inserted == 2, "\(report)")
        #expect(try package.scalar("SELECT fid FROM inspections WHERE note = 'lightning scar'") == 3)
        #expect(try treeLinks(package) == ["T1 > dead branch", "T1 > healthy", "T1 > lightning scar"])
        #expect(try PackageChangeTracking(connection: package).pendingChanges().isEmpty)
        #expect(try f.verify().differences.isEmpty)
    }
}
