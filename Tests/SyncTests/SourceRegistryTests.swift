import Foundation
import GeoPackageSource
import Geometry
import PackageFormat
import PkgBuildCLI
import SourceDrivers
import Sync
import TestSupport
import Testing

/// A source is chosen by its address among the drivers registered; an address no driver takes
/// is refused naming it and the drivers there are, its password never shown.
@Suite struct SourceRegistryTests {
    @Test func theGeoPackageDriverTakesPathsOnly() {
        let driver = GeoPackageSourceDriver()
        #expect(driver.accepts("/data/roads.gpkg") && driver.accepts("roads.gpkg") && driver.accepts("C:source"))
        #expect(!driver.accepts("PG:dbname=gis") && !driver.accepts("postgresql://u@h/gis"))
    }

    @Test func anAddressNoDriverTakesIsRefusedWithoutItsPassword() {
        let registry = SourceRegistry([GeoPackageSourceDriver()])
        let error = #expect(throws: SourceError.self) {
            try registry.openSyncSource("postgresql://crew:s3cret@db.example:5432/gis", options: SourceOpenOptions())
        }
        #expect(error?.kind == .noDriver)
        #expect(error?.message.contains("postgresql://crew:***@db.example:5432/gis") == true, "\(String(describing: error))")
        #expect(error?.message.contains("this build has: GeoPackage") == true && error?.message.contains("s3cret") == false)
        let none = #expect(throws: SourceError.self) { try SourceRegistry().driver(for: "a.gpkg") }
        #expect(none?.message.contains("this build has: none") == true)
    }

    @Test(arguments: [
        ("postgresql://crew:s3cret@host/gis", "postgresql://crew:***@host/gis"),
        ("postgresql://crew@host/gis?password=s3cret&sslmode=require", "postgresql://crew@host/gis?password=***&sslmode=require"),
        ("PG:\"dbname=gis password=s3cret host=h\"", "PG:\"dbname=gis password=*** host=h\""),
        ("PG:dbname=gis PASSWORD = 's3 cret' user=u", "PG:dbname=gis PASSWORD = *** user=u"),
        ("/data/source.gpkg", "/data/source.gpkg"),
    ])
    func passwordsAreRedacted(address: String, shown: String) {
        #expect(SourceAddress.redacted(address) == shown)
    }

    /// `sync --source` with an address of a backend no build has (MySQL): exit 1, the reason and
    /// the backends there are, nothing written, no password.
    @Test func syncWithAnAddressNoDriverTakes() throws {
        let fixture = try SyncFixture()
        let url = try fixture.makePackage()
        let before = try sqliteDump(url.appendingPathComponent("data.gpkg").path)
        let result = CLI.run(["sync", url.path, "--source", "mysql://crew:hunter2@db.example/gis", "--json"])
        #expect(result.exitCode == 1)
        #expect(result.stderr.contains("\"kind\":\"source\"") || result.stderr.contains("\"kind\": \"source\""), "\(result.stderr)")
        #expect(result.stderr.contains("no source driver takes") && result.stderr.contains("GeoPackage"), "\(result.stderr)")
        #expect(!result.stderr.contains("hunter2"))
        #expect(try sqliteDump(url.appendingPathComponent("data.gpkg").path) == before)
    }

    /// A geometry crosses the seam as the WKB after the GeoPackage header, and comes back as
    /// the same blob: the GeoPackage driver changes no byte of a blob GDAL wrote.
    @Test func aGeoPackageBlobCrossesTheSeamUnchanged() throws {
        let fixture = try SyncFixture()
        let blobs = try fixture.openSource().connection.query("SELECT geom FROM parks UNION ALL SELECT geom FROM airports")
        #expect(blobs.count > 5)
        for row in blobs {
            guard case .blob(let bytes) = row[0] else { continue }
            let value = try GeoPackageBinary.geometryValue(of: bytes)
            #expect(try value.geometry() == GeoPackageBinary(bytes: bytes).geometry)
            #expect(try GeoPackageBinary.blob(of: value) == bytes)
            var unboxed = value
            unboxed.envelope = nil
            let rebuilt = try GeoPackageBinary(bytes: try GeoPackageBinary.blob(of: unboxed))
            #expect(rebuilt.geometry == (try GeoPackageBinary(bytes: bytes)).geometry && rebuilt.srsID == Int32(value.srsID))
        }
    }
}

/// `create` keeps the source's change-log position as its driver wrote it (the GeoPackage
/// driver's cursor is its generation), and the first sync reads changes from there.
@Suite struct CreatePositionTests {
    @Test func aPackageKeepsTheCursorItsRowsWereReadAt() throws {
        let fixture = try SyncFixture()
        let url = try fixture.makePackage()
        let state = try PackageSyncState.read(fixture.openPackage(url).connection)
        let generation = try #require(try fixture.openSource().connection.scalar(
            "SELECT seq FROM sqlite_sequence WHERE name = 'pkgbuild_changes'")?.int64Value ?? 0)
        #expect(state.sourceCursor == String(generation) && state.sourceGeneration == generation, "\(state)")
        try ogrSQL(fixture.sourcePath, "UPDATE airports SET type = 'office' WHERE name = 'Kodiak'")
        let report = try fixture.sync(url)
        #expect(report.downloaded.updated == 1, "\(report)")
        let after = try PackageSyncState.read(fixture.openPackage(url).connection)
        #expect(after.sourceCursor == String(after.sourceGeneration) && after.sourceGeneration > generation, "\(after)")
    }
}

/// A change-log position another backend's driver wrote is refused, never replaced by a
/// guess from which changes could be skipped.
@Suite struct ForeignCursorTests {
    @Test func aCursorTheGeoPackageDriverDidNotWriteIsRefused() throws {
        let fixture = try SyncFixture()
        let url = try fixture.makePackage()
        let data = url.appendingPathComponent("data.gpkg").path
        let set = try pythonSQLite(data, "UPDATE pkgbuild_package SET value = 'snapshot:812:820:' WHERE key = 'source_cursor'")
        #expect(set.status == 0, "\(set.stderr)")
        let before = try sqliteDump(data)
        let result = CLI.run(["sync", url.path, "--json"])
        #expect(result.exitCode == 1)
        #expect(result.stderr.contains("snapshot:812:820:") && result.stderr.contains("not written by a GeoPackage source"), "\(result.stderr)")
        #expect(result.stderr.contains("\"source\""), "\(result.stderr)")
        #expect(try sqliteDump(data) == before)
    }
}
