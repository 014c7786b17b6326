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
}
