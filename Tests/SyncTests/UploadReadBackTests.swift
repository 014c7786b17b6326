import Foundation
import GeoPackageSource
import Geodatabase
import PkgBuildCLI
import SQLite
import SourceDrivers
import TestSupport
import Testing

/// An uploaded row the source took as sent is not read back (the package already holds it);
/// a source that rewrites what it is sent (a trigger of its own, as editor tracking does) has
/// every uploaded row read back, so the package ends with the source's values.
@Suite struct UploadReadBackTests {
    func storesAsSent(_ name: String, at path: String) throws -> Bool {
        let source = try GeoPackageSourceDriver().openSyncSource(path, options: SourceOpenOptions(readOnly: true))
        let table = try #require(try source.trackedTables().first { $0.name == name })
        let shape = TableShape(name: table.name, keyColumn: table.keyColumn, globalIDColumn: table.globalIDColumn,
                               columns: table.columns.map(\.name), geometryColumn: table.geometry?.name)
        return try source.storesAsSent(shape)
    }

    @Test func aSourceTriggerThatRewritesUploadsHasTheRowsReadBack() throws {
        let fixture = try SyncFixture()
        let url = try fixture.makePackage()
        let data = url.appendingPathComponent("data.gpkg").path
        let stamp = try pythonSQLite(fixture.sourcePath, """
            CREATE TRIGGER office_stamp AFTER UPDATE OF geom ON airports BEGIN UPDATE airports SET type = 'stamped' WHERE fid = NEW.fid; END
            """)
        #expect(stamp.status == 0, "\(stamp.stderr)")
        #expect(try storesAsSent("airports", at: fixture.sourcePath) == false)

        try ogrSQL(data, "UPDATE airports SET geom = AsGPB(MakePoint(-152.4, 57.8, 4326)) WHERE name = 'Kodiak'")
        let report = try fixture.sync(url)
        #expect(report.status == .completed && report.uploaded.updated == 1, "\(report)")
        // Judged by the sqlite3 shell, not by our reader.
        for path in [fixture.sourcePath, data] {
            let type = try runProcess("sqlite3", [path, "SELECT type FROM airports WHERE name = 'Kodiak'"])
            #expect(type.status == 0 && type.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "stamped", "\(path): \(type.stdout)")
        }
        #expect(try PackageChangeTracking(connection: fixture.openPackage(url).connection).pendingChanges().isEmpty)
    }

    /// Without such a trigger the same edit is not read back, and both sides hold one row.
    @Test func aSourceWithOnlyItsTrackingAndGDALsTriggersStoresAsSent() throws {
        let fixture = try SyncFixture()
        let url = try fixture.makePackage()
        let data = url.appendingPathComponent("data.gpkg").path
        #expect(try storesAsSent("airports", at: fixture.sourcePath))
        try ogrSQL(data, "UPDATE airports SET geom = AsGPB(MakePoint(-152.4, 57.8, 4326)) WHERE name = 'Kodiak'")
        let report = try fixture.sync(url)
        #expect(report.status == .completed && report.uploaded.updated == 1 && report.downloaded.updated == 0, "\(report)")
        let query = "SELECT ST_AsText(geom), type FROM airports WHERE name = 'Kodiak'"
        let atSource = try runProcess("ogrinfo", ["-ro", "-q", fixture.sourcePath, "-sql", query])
        let inPackage = try runProcess("ogrinfo", ["-ro", "-q", data, "-sql", query])
        #expect(atSource.status == 0 && atSource.stdout.contains("POINT(-152.4 57.8)"), "\(atSource.stdout) \(atSource.stderr)")
        #expect(inPackage.stdout.contains("POINT(-152.4 57.8)"), "\(inPackage.stdout)")
    }
}
