import Foundation
import Geodatabase
import SQLite
@testable import Sync
import TestSupport
import Testing

/// Scenarios beyond the matrix: related rows, insert-then-delete offline, two packages with
/// overlapping areas syncing at the same time.
@Suite struct ScenarioTests {
    @Test func relatedRowEditsSyncAndUnrelatedRowsStayOut() throws {
        let fixture = try SyncFixture()
        let url = try fixture.makePackage()
        let package = try fixture.openPackage(url).connection
        let source = try fixture.openSource().connection
        // DENA and KEFJ are in the area, NOAT is not: its visitors row was never packaged.
        #expect(try package.scalar("SELECT count(*) FROM park_visitors WHERE unit_code = 'NOAT'") == 0)
        try package.execute("UPDATE park_visitors SET annual_visitors = '50,000-100,000' WHERE unit_code = 'DENA'")
        try source.execute("UPDATE park_visitors SET survey_year = 2024 WHERE unit_code = 'KEFJ'")
        try source.execute("UPDATE park_visitors SET survey_year = 2023 WHERE unit_code = 'NOAT'")

        let report = try fixture.sync(url)
        #expect(report.status == .completed)
        #expect(try source.scalar("SELECT annual_visitors FROM park_visitors WHERE unit_code = 'DENA'") == "50,000-100,000")
        #expect(try package.scalar("SELECT survey_year FROM park_visitors WHERE unit_code = 'KEFJ'") == 2024)
        #expect(try package.scalar("SELECT count(*) FROM park_visitors WHERE unit_code = 'NOAT'") == 0)
        // A new related row made offline keeps its link and goes up.
        try package.execute("DELETE FROM park_visitors WHERE unit_code = 'LACL'")
        try package.execute("INSERT INTO park_visitors (unit_code, annual_visitors, survey_year) VALUES ('LACL', '1,000-10,000', 2026)")
        #expect(try fixture.sync(url).status == .completed)
        #expect(try source.scalar("SELECT survey_year FROM park_visitors WHERE unit_code = 'LACL'") == 2026)
        #expect(try source.scalar("SELECT count(*) FROM park_visitors WHERE unit_code = 'LACL'") == 1)
    }

    @Test func aParkMovingIntoTheAreaBringsItsUnchangedVisitorsRow() throws {
        let fixture = try SyncFixture()
        let url = try fixture.makePackage()
        let package = try fixture.openPackage(url).connection
        let source = try fixture.openSource().connection
        #expect(try package.scalar("SELECT count(*) FROM parks WHERE unit_code = 'NOAT'") == 0)
        #expect(try package.scalar("SELECT count(*) FROM park_visitors WHERE unit_code = 'NOAT'") == 0)
        // NOAT takes DENA's outline at the source; its visitors row does not change.
        try source.execute("UPDATE parks SET geom = (SELECT geom FROM parks WHERE unit_code = 'DENA') WHERE unit_code = 'NOAT'")
        let report = try fixture.sync(url)
        #expect(report.status == .completed && report.downloaded.inserted == 2, "\(report)")
        #expect(try package.scalar("SELECT annual_visitors FROM park_visitors WHERE unit_code = 'NOAT'") == "1,000-10,000")
        #expect(try PackageChangeTracking(connection: package).pendingChanges().isEmpty)
        // Out of the area again: the park leaves the package, and its visitors row with it.
        try source.execute("UPDATE parks SET geom = (SELECT geom FROM parks WHERE unit_code = 'BELA') WHERE unit_code = 'NOAT'")
        #expect(try fixture.sync(url).leftArea == 2)
        #expect(try package.scalar("SELECT count(*) FROM parks WHERE unit_code = 'NOAT'") == 0)
        #expect(try package.scalar("SELECT count(*) FROM park_visitors WHERE unit_code = 'NOAT'") == 0)
    }

    @Test func insertThenDeleteOfflineLeavesNothingToSync() throws {
        let fixture = try SyncFixture()
        let url = try fixture.makePackage()
        let package = try fixture.openPackage(url).connection
        try package.execute("INSERT INTO airports (geom, name) VALUES (?, 'temporary')", [pointBlob(-150, 60)])
        try package.execute("UPDATE airports SET type = 'x' WHERE name = 'temporary'")
        try package.execute("DELETE FROM airports WHERE name = 'temporary'")
        let before = try contents(fixture.openSource().connection, "airports")
        let report = try fixture.sync(url)
        #expect(report.uploaded.total == 0)
        #expect(try contents(fixture.openSource().connection, "airports") == before)
    }

    @Test func twoOverlappingPackagesSyncingAtOnceLoseNothing() throws {
        let fixture = try SyncFixture()
        // Both areas hold Anchorage; each package edits another column of it, and rows of its own.
        let west = try fixture.makePackage("west.pkg", box: (-160, 57, -149, 66))
        let east = try fixture.makePackage("east.pkg", box: (-151, 57, -140, 66))
        let westDB = try fixture.openPackage(west).connection, eastDB = try fixture.openPackage(east).connection
        try westDB.execute("UPDATE airports SET type = 'west' WHERE name = 'Anchorage Int''l'")
        try eastDB.execute("UPDATE airports SET iata_code = 'EAS' WHERE name = 'Anchorage Int''l'")
        try westDB.execute("UPDATE airports SET type = 'seaplane' WHERE name = 'Kodiak'")
        try eastDB.execute("UPDATE airports SET type = 'military' WHERE name = 'Fairbanks Int''l'")
        for i in 0..<200 {
            try westDB.execute("INSERT INTO airports (geom, name) VALUES (?, ?)", [pointBlob(-150.2, 60 + Double(i) / 1000), .text("w\(i)")])
            try eastDB.execute("INSERT INTO airports (geom, name) VALUES (?, ?)", [pointBlob(-149.8, 60 + Double(i) / 1000), .text("e\(i)")])
        }

        let reports = ReportBox()
        let group = DispatchGroup()
        for url in [west, east] {
            let path = fixture.sourcePath
            group.enter()
            DispatchQueue.global().async {
                let result = Result { try SyncSession(package: url, options: SyncOptions(source: path)).run() }
                reports.append(result)
                group.leave()
            }
        }
        group.wait()
        for result in reports.all { #expect((try? result.get())?.status == .completed, "\(result)") }
        // Each syncs once more to take the other's upload.
        #expect(try fixture.sync(west).status == .completed)
        #expect(try fixture.sync(east).status == .completed)

        let source = try fixture.openSource().connection
        #expect(try source.scalar("SELECT type || '/' || iata_code FROM airports WHERE name = 'Anchorage Int''l'") == "west/EAS")
        #expect(try source.scalar("SELECT count(*) FROM airports WHERE name GLOB 'w[0-9]*' OR name GLOB 'e[0-9]*'") == 400)
        for db in [westDB, eastDB] {
            #expect(try db.scalar("SELECT type || '/' || iata_code FROM airports WHERE name = 'Anchorage Int''l'") == "west/EAS")
        }
        // Rows in both areas reached both packages; each package's rows equal the source's.
        #expect(try westDB.scalar("SELECT count(*) FROM airports WHERE name GLOB 'e[0-9]*'") == 200)
        let sourceRows = try contents(source, "airports")
        for db in [westDB, eastDB] {
            for (id, row) in try contents(db, "airports") { #expect(sourceRows[id] == row) }
        }
    }
}

/// Results gathered from concurrent syncs.
final class ReportBox: @unchecked Sendable {
    private let lock = NSLock()
    private var results: [Result<SyncReport, any Error>] = []
    func append(_ r: Result<SyncReport, any Error>) { lock.withLock { results.append(r) } }
    var all: [Result<SyncReport, any Error>] { lock.withLock { results } }
}
