import Foundation
import Geodatabase
import SQLite
@testable import Sync
import TestSupport
import Testing

/// A sync stopped at each crash point and run again ends where an uninterrupted sync of an
/// identical copy ends: both databases equal by global id, nothing lost or doubled.
@Suite struct CrashPointTests {
    /// Edits on both sides: inserts, updates (attribute, geometry, both sides on other
    /// columns), deletes, and a move out of the area.
    static func edit(_ fixture: SyncFixture, _ url: URL) throws {
        let package = try fixture.openPackage(url).connection
        let source = try fixture.openSource().connection
        try package.execute("INSERT INTO airports (geom, name, type) VALUES (?, 'Field strip', 'small')", [pointBlob(-151, 60)])
        try package.execute("UPDATE airports SET type = 'closed' WHERE name = 'Fairbanks Int''l'")
        try package.execute("UPDATE airports SET geom = ? WHERE name = 'Kodiak'", [pointBlob(-170, 50)])
        try package.execute("UPDATE park_visitors SET survey_year = 2026 WHERE unit_code = 'DENA'")
        try package.execute("DELETE FROM parks WHERE unit_code = 'ANIA'")
        try source.execute("UPDATE airports SET iata_code = 'FAI2' WHERE name = 'Fairbanks Int''l'")
        try source.execute("INSERT INTO airports (geom, name, type) VALUES (?, 'Office strip', 'small')", [pointBlob(-152, 60.5)])
        try source.execute("UPDATE parks SET unit_name = 'Denali NP&P' WHERE unit_code = 'DENA'")
        try source.execute("DELETE FROM park_visitors WHERE unit_code = 'KEFJ'")
    }

    @Test(arguments: SyncCrashPoint.allCases)
    func crashThenRerunConverges(_ point: SyncCrashPoint) throws {
        let fixture = try SyncFixture()
        let url = try fixture.makePackage()
        try Self.edit(fixture, url)
        let (copy, copyURL) = try fixture.clone(package: url)

        let uninterrupted = try copy.sync(copyURL)
        #expect(uninterrupted.status == .completed)

        #expect(throws: SimulatedCrash.self) {
            try fixture.sync(url, crashHook: { if $0 == point { throw SimulatedCrash() } })
        }
        let rerun = try fixture.sync(url)
        #expect(rerun.status == .completed)
        #expect(rerun.resumed == (point == .sourceCommitted || point == .downloadApplied))
        #expect(try fixture.snapshot(url) == copy.snapshot(copyURL))
        let pending = try PackageChangeTracking(connection: fixture.openPackage(url).connection).pendingChanges()
        #expect(pending.isEmpty)
        // Kodiak moved out of the area: uploaded, and gone from the package.
        let snapshot = try fixture.snapshot(url)
        #expect(snapshot["source.airports"]?.values.contains { $0["geom"] == "POINT (-170 50)" } == true)
        #expect(snapshot["package.airports"]?.values.contains { $0["name"] == "'Kodiak'" } == false)
        // A second sync finds nothing to do.
        let again = try fixture.sync(url)
        #expect(again.uploaded.total == 0 && again.downloaded.total == 0)
    }
}
