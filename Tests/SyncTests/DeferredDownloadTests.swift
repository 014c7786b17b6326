import Foundation
import Geodatabase
import SQLite
@testable import Sync
import TestSupport
import Testing

/// A source change the download leaves alone because the row's local change is pending comes
/// down in a later sync, even when that local change is put back and never uploads.
@Suite struct DeferredDownloadTests {
    static let kodiak = "name = 'Kodiak'"

    func packageValue(_ fixture: SyncFixture, _ url: URL, _ column: String) throws -> SQLiteValue? {
        try fixture.openPackage(url).connection.scalar("SELECT \(column) FROM airports WHERE \(Self.kodiak)")
    }

    @Test func anOfficeEditBehindARevertedLocalEditArrives() throws {
        let fixture = try SyncFixture()
        let url = try fixture.makePackage()
        let data = url.appendingPathComponent("data.gpkg").path
        let originalType = try #require(try packageValue(fixture, url, "type")?.stringValue)
        try ogrSQL(data, "UPDATE airports SET type = 'field' WHERE \(Self.kodiak)")
        try ogrSQL(fixture.sourcePath, "UPDATE airports SET iata_code = 'OFF' WHERE \(Self.kodiak)")
        // This sync cannot carry the local edit, and leaves the row alone.
        let first = try fixture.sync(url, direction: .download)
        #expect(first.status != .stoppedOnConflicts)
        #expect(try packageValue(fixture, url, "iata_code") != "OFF")
        // The field puts its edit back: nothing of the row is pending any more.
        try ogrSQL(data, "UPDATE airports SET type = '\(originalType)' WHERE \(Self.kodiak)")
        #expect(try PackageChangeTracking(connection: fixture.openPackage(url).connection).pendingChanges().isEmpty)
        let second = try fixture.sync(url)
        #expect(second.status == .completed)
        #expect(try packageValue(fixture, url, "iata_code") == "OFF")
        #expect(try packageValue(fixture, url, "type") == .text(originalType))
        let third = try fixture.sync(url)
        #expect(third.downloaded.total == 0 && third.uploaded.total == 0)
    }

    /// A local edit put back is no change, and a download-only sync overwrites the row with the
    /// office's: the edit record goes with it. Kept, it compared its old base with the office's
    /// values, so the office's next edit met a local "change" back to the old value: a false
    /// conflict that `package-wins` settled by writing the office's earlier value over its later.
    @Test func aRevertedEditDoesNotOutliveADownloadOnlySync() throws {
        let fixture = try SyncFixture()
        let url = try fixture.makePackage()
        let data = url.appendingPathComponent("data.gpkg").path
        let originalType = try #require(try packageValue(fixture, url, "type")?.stringValue)
        try ogrSQL(data, "UPDATE airports SET type = 'field' WHERE \(Self.kodiak)")
        try ogrSQL(data, "UPDATE airports SET type = '\(originalType)' WHERE \(Self.kodiak)")
        try ogrSQL(fixture.sourcePath, "UPDATE airports SET type = 'office 1' WHERE \(Self.kodiak)")
        let down = try fixture.sync(url, direction: .download)
        #expect(down.status == .completed)
        #expect(try packageValue(fixture, url, "type") == "office 1")
        #expect(try PackageChangeTracking(connection: fixture.openPackage(url).connection).pendingChanges().isEmpty)

        try ogrSQL(fixture.sourcePath, "UPDATE airports SET type = 'office 2' WHERE \(Self.kodiak)")
        let both = try fixture.sync(url, policy: .packageWins)
        #expect(both.conflicts.isEmpty && both.uploaded.total == 0, "\(both.conflicts)")
        #expect(try fixture.openSource().connection.scalar("SELECT type FROM airports WHERE \(Self.kodiak)") == "office 2")
        #expect(try packageValue(fixture, url, "type") == "office 2")
    }
}
