import Foundation
import Geodatabase
import Geometry
import PackageFormat
import SQLite
import SourceDrivers
@testable import Sync
import TestSupport
import Testing

/// The real sync run against both drivers: the GeoPackage source and an in-memory copy of it
/// with no SQLite underneath. Each test holds both to the same behaviour, through the protocol.
@Suite struct InMemorySyncTests {
    @Test(arguments: SourceBackend.available)
    func anAttributeEditInThePackageUploads(_ backend: SourceBackend) throws {
        let f = try SourceBackendFixture(backend)
        try ogrSQL(f.data, "UPDATE airports SET type = 'closed' WHERE name = 'Kodiak'")
        let report = try f.sync()
        #expect(report.status == .completed && report.uploaded.updated == 1 && report.downloaded.total == 0, "\(report)")
        #expect(try f.sourceValue("airports", named: "Kodiak", "type") == .text("closed"))
        if backend == .memory {
            // The GeoPackage the copy was made from is untouched: the sync reached memory only.
            let original = try f.base.openSource().connection.scalar("SELECT type FROM airports WHERE name = 'Kodiak'")
            #expect(original != "closed")
        }
        // Its own upload does not come back, now or on the next sync.
        let again = try f.sync()
        #expect(again.uploaded.total == 0 && again.downloaded.total == 0, "\(again)")
    }

    /// Rows the download would otherwise take back: an insert, and a geometry edit (neither is
    /// settled by the upload alone).
    @Test(arguments: SourceBackend.available)
    func thePackagesOwnUploadIsNotEchoedBack(_ backend: SourceBackend) throws {
        let f = try SourceBackendFixture(backend)
        let package = try f.base.openPackage(f.url).connection
        try package.execute("INSERT INTO airports (geom, name, type) VALUES (?, 'Field strip', 'small')", [pointBlob(-151, 60)])
        try package.execute("UPDATE airports SET geom = ? WHERE name = 'Kodiak'", [pointBlob(-152.5, 57.8)])
        // The download is told of no change at all (its progress counts each one streamed).
        let streamed = ChangeCounter()
        var options = f.options()
        options.progress = { stage, done, _ in if stage == .download { streamed.note(done) } }
        let report = try SyncSession(package: f.url, options: options).run()
        #expect(report.status == .completed && report.uploaded.total == 2 && report.downloaded.total == 0, "\(report)")
        #expect(streamed.highest == 0)
        #expect(try f.sourceValue("airports", named: "Field strip", "type") == .text("small"))
        let again = try f.sync()
        #expect(again.uploaded.total == 0 && again.downloaded.total == 0, "\(again)")
    }

    @Test(arguments: SourceBackend.available)
    func anOfficeEditDownloadsAndTheCursorIsKeptAsTheDriverWroteIt(_ backend: SourceBackend) throws {
        let f = try SourceBackendFixture(backend)
        try f.officeUpdate("airports", named: "Fairbanks Int'l", set: "iata_code", to: .text("FAI2"))
        let report = try f.sync()
        #expect(report.status == .completed && report.downloaded.updated == 1 && report.uploaded.total == 0, "\(report)")
        #expect(try f.packageValue("airports", named: "Fairbanks Int'l", "iata_code") == "'FAI2'")
        let state = try PackageSyncState.read(f.base.openPackage(f.url).connection)
        let source = try f.registry.openSyncSource(f.address, options: SourceOpenOptions(readOnly: true))
        if backend == .postgreSQL {
            // A snapshot, which moves with every transaction of the server: the one the download read.
            let read = try source.position(cursor: state.sourceCursor, generation: state.sourceGeneration)
            #expect(read.cursor == state.sourceCursor && read.generation == state.sourceGeneration)
            #expect(state.sourceGeneration <= (try source.position().generation))
        } else {
            let position = try source.position()
            #expect(state.sourceCursor == position.cursor && state.sourceGeneration == position.generation)
        }
        if backend == .memory { #expect(state.sourceCursor?.hasPrefix("mem:") == true) }
        #expect(try f.sync().downloaded.total == 0)
    }

    @Test(arguments: SourceBackend.available)
    func anOfficeInsertDownloadsInsideTheAreaOnly(_ backend: SourceBackend) throws {
        let f = try SourceBackendFixture(backend)
        try f.officeInsertAirport("Inside strip", x: -150, y: 61)
        try f.officeInsertAirport("Outside strip", x: -100, y: 40)
        let report = try f.sync()
        #expect(report.status == .completed && report.downloaded.inserted == 1, "\(report)")
        #expect(try f.packageValue("airports", named: "Inside strip", "type") == "'small'")
        #expect(try f.packageValue("airports", named: "Outside strip", "type") == nil)
    }

    @Test(arguments: SourceBackend.available)
    func aRowMovedOutOfTheAreaLeavesThePackage(_ backend: SourceBackend) throws {
        let f = try SourceBackendFixture(backend)
        #expect(try f.packageValue("airports", named: "Kodiak", "name") != nil)
        try f.officeUpdate("airports", named: "Kodiak", set: "geom",
                           to: .geometry(GeometryValue(.point(Point(x: -170, y: 50)), srsID: 4326)))
        let report = try f.sync()
        #expect(report.status == .completed, "\(report)")
        #expect(try f.packageValue("airports", named: "Kodiak", "name") == nil)
        #expect(try f.sourceValue("airports", named: "Kodiak", "name") == .text("Kodiak"))
    }

    @Test(arguments: SourceBackend.available)
    func anEditOnBothSidesUnderFailStopsAndChangesNeitherSide(_ backend: SourceBackend) throws {
        let f = try SourceBackendFixture(backend)
        try ogrSQL(f.data, "UPDATE airports SET type = 'field' WHERE name = 'Kodiak'")
        try f.officeUpdate("airports", named: "Kodiak", set: "type", to: .text("office"))
        let report = try f.sync()
        #expect(report.status == .stoppedOnConflicts && report.conflicts.count == 1, "\(report)")
        #expect(report.conflicts.first?.column == "type")
        #expect(try f.packageValue("airports", named: "Kodiak", "type") == "'field'")
        #expect(try f.sourceValue("airports", named: "Kodiak", "type") == .text("office"))
    }

    @Test(arguments: SourceBackend.available, [ConflictPolicy.sourceWins, .packageWins])
    func anEditOnBothSidesSettlesByThePolicy(_ backend: SourceBackend, _ policy: ConflictPolicy) throws {
        let f = try SourceBackendFixture(backend)
        try ogrSQL(f.data, "UPDATE airports SET type = 'field' WHERE name = 'Kodiak'")
        try f.officeUpdate("airports", named: "Kodiak", set: "type", to: .text("office"))
        let report = try f.sync(policy: policy)
        #expect(report.status == .completed && report.conflicts.count == 1, "\(report)")
        let winner = policy == .sourceWins ? "office" : "field"
        #expect(try f.packageValue("airports", named: "Kodiak", "type") == "'\(winner)'")
        #expect(try f.sourceValue("airports", named: "Kodiak", "type") == .text(winner))
        #expect(try f.verify().differences.isEmpty)
    }

    @Test(arguments: SourceBackend.available)
    func verifyFindsNoDifferenceAfterASync(_ backend: SourceBackend) throws {
        let f = try SourceBackendFixture(backend)
        let package = try f.base.openPackage(f.url).connection
        try package.execute("INSERT INTO airports (geom, name, type) VALUES (?, 'Field strip', 'small')", [pointBlob(-151, 60)])
        try package.execute("UPDATE airports SET type = 'closed' WHERE name = 'Fairbanks Int''l'")
        try package.execute("UPDATE park_visitors SET survey_year = 2026 WHERE unit_code = 'DENA'")
        try package.execute("DELETE FROM parks WHERE unit_code = 'ANIA'")
        try f.officeUpdate("parks", named: "DENA", column: "unit_code", set: "unit_name", to: .text("Denali NP&P"))
        try f.officeInsertAirport("Office strip", x: -152, y: 60.5)
        let report = try f.sync()
        #expect(report.status == .completed, "\(report)")
        let verified = try f.verify()
        #expect(verified.differences.isEmpty, "\(verified.differences)")
        // An office edit after the sync shows as behind, not divergent.
        try f.officeUpdate("airports", named: "Anchorage Int'l", set: "type", to: .text("office"))
        let behind = try f.verify()
        #expect(!behind.isDivergent && behind.differences.map(\.status) == [.behind], "\(behind.differences)")
    }
}

/// The highest count a progress callback reported.
final class ChangeCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0

    var highest: Int { lock.withLock { value } }

    func note(_ count: Int) { lock.withLock { value = max(value, count) } }
}
