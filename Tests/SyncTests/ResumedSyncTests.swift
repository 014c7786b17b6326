import Foundation
import Geodatabase
import SQLite
@testable import Sync
import TestSupport
import Testing

/// A sync killed after the source committed, then a newer field edit of a row it uploaded:
/// the re-run finishes the sync, and the newer edit goes up at the next sync against what the
/// upload wrote, never as a conflict with the package's own upload, and never thrown away.
@Suite struct ResumedSyncTests {
    static func killAfterTheSourceCommitted(_ fixture: SyncFixture, _ url: URL) throws {
        #expect(throws: SimulatedCrash.self) {
            try fixture.sync(url, crashHook: { if $0 == .sourceCommitted { throw SimulatedCrash() } })
        }
    }

    func source(_ fixture: SyncFixture, _ sql: String) throws -> SQLiteValue? {
        try fixture.openSource().connection.scalar(sql)
    }

    @Test(arguments: [ConflictPolicy.fail, .sourceWins])
    func aNewerEditOfAnUploadedRowGoesUpAfterTheResumedSync(_ policy: ConflictPolicy) throws {
        let fixture = try SyncFixture()
        let url = try fixture.makePackage()
        let data = url.appendingPathComponent("data.gpkg").path
        try ogrSQL(data, "UPDATE airports SET type = 'first' WHERE name = 'Kodiak'")
        try Self.killAfterTheSourceCommitted(fixture, url)
        #expect(try source(fixture, "SELECT type FROM airports WHERE name = 'Kodiak'") == "first")
        // The field goes on editing the same row, both the uploaded column and another.
        try ogrSQL(data, "UPDATE airports SET type = 'second', iata_code = 'KDK' WHERE name = 'Kodiak'")
        let resumed = try fixture.sync(url, policy: policy)
        #expect(resumed.resumed && resumed.conflicts.isEmpty, "\(resumed.conflicts)")
        let next = try fixture.sync(url, policy: policy)
        #expect(next.status == .completed && next.conflicts.isEmpty && next.uploaded.updated == 1, "\(next.conflicts)")
        #expect(try source(fixture, "SELECT type || '/' || iata_code FROM airports WHERE name = 'Kodiak'") == "second/KDK")
        #expect(try PackageChangeTracking(connection: fixture.openPackage(url).connection).pendingChanges().isEmpty)
    }

    @Test func anUploadedInsertDeletedBeforeTheResumeIsDeletedAtTheSource() throws {
        let fixture = try SyncFixture()
        let url = try fixture.makePackage()
        let data = url.appendingPathComponent("data.gpkg").path
        try ogrSQL(data, "INSERT INTO airports (geom, name, type) VALUES (AsGPB(MakePoint(-151, 60, 4326)), 'Field strip', 'small')")
        try Self.killAfterTheSourceCommitted(fixture, url)
        #expect(try source(fixture, "SELECT count(*) FROM airports WHERE name = 'Field strip'") == 1)
        try ogrSQL(data, "DELETE FROM airports WHERE name = 'Field strip'")
        #expect(try fixture.sync(url).resumed)
        let next = try fixture.sync(url)
        #expect(next.status == .completed && next.uploaded.deleted == 1, "\(next)")
        #expect(try source(fixture, "SELECT count(*) FROM airports WHERE name = 'Field strip'") == 0)
    }

    /// Killed before the source committed, nothing was uploaded: the newer edit goes up whole
    /// against the old base, and nothing of the first run's images is left.
    @Test func aNewerEditAfterAnUnappliedRunIsTheWholeChange() throws {
        let fixture = try SyncFixture()
        let url = try fixture.makePackage()
        let data = url.appendingPathComponent("data.gpkg").path
        try ogrSQL(data, "UPDATE airports SET type = 'first' WHERE name = 'Kodiak'")
        #expect(throws: SimulatedCrash.self) {
            try fixture.sync(url, crashHook: { if $0 == .pendingRecorded { throw SimulatedCrash() } })
        }
        try ogrSQL(data, "UPDATE airports SET iata_code = 'KDK' WHERE name = 'Kodiak'")
        #expect(try !fixture.sync(url).resumed)
        #expect(try fixture.sync(url).status == .completed)
        #expect(try source(fixture, "SELECT type || '/' || iata_code FROM airports WHERE name = 'Kodiak'") == "first/KDK")
        let images = try fixture.openPackage(url).connection.scalar("SELECT count(*) FROM pkgbuild_inflight_airports")
        #expect(images == 0)
    }
}
