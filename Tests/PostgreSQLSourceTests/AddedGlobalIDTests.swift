import Foundation
import PkgBuildCLI
import Testing
import TestSupport

/// Tables whose global id `source enable` added (NOT NULL at the source): a package cut from
/// them still takes rows inserted without one, as every GeoPackage client inserts them.
@Suite(.needsPostgreSQL) struct AddedGlobalIDTests {
    @Test func aRowInsertedInThePackageWithoutAGlobalIDGetsOneAndGoesUp() throws {
        let source = try PostGISSource(globalIDs: false)
        #expect(CLI.run(["source", "enable", source.address]).exitCode == 0)
        #expect(try source.psql("SELECT is_nullable FROM information_schema.columns WHERE table_name = 'airports' AND column_name = 'globalid'") == "NO")
        let directory = try TemporaryDirectory("pkgbuild-added-globalid")
        let package = directory.path("crew.pkg")
        let created = CLI.run(["create", "--area=-160,57,-140,66", "--features", source.address, "--output", package])
        try #require(created.exitCode == 0, "\(created.stderr)")
        let insert = try runProcess("ogrinfo", ["-q", package + "/data.gpkg", "-sql",
                                                "INSERT INTO airports (geom, name, type) SELECT geom, 'Field strip', 'small' FROM airports LIMIT 1"])
        #expect(insert.status == 0 && !insert.stderr.contains("ERROR"), "\(insert.stderr)")
        let synced = CLI.run(["sync", package, "--source", source.address])
        #expect(synced.exitCode == 0, "\(synced.stderr)")
        #expect(try source.psql("SELECT count(*) FROM airports WHERE name = 'Field strip' AND globalid IS NOT NULL") == "1")
    }
}
