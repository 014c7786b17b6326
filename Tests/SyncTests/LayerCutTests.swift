import Foundation
import Geodatabase
import PkgBuildCLI
import SQLite
@testable import Sync
import TestSupport
import Testing

/// Layers cut at build time, and the directions.
@Suite struct LayerCutTests {
    /// Attribute edits of a clipped layer sync (ClippedLayerTests has the refused kinds).
    @Test func clippedLayerSyncsAttributes() throws {
        let fixture = try SyncFixture()
        let url = try fixture.makePackage(arguments: ["--clip"])
        let package = try fixture.openPackage(url).connection
        let source = try fixture.openSource().connection
        try package.execute("UPDATE parks SET unit_name = 'local' WHERE unit_code = 'DENA'")
        try source.execute("UPDATE parks SET unit_name = 'Wrangell (office)' WHERE unit_code = 'WRST'")

        let result = CLI.run(["sync", url.path, "--source", fixture.sourcePath])
        #expect(result.exitCode == 0, "\(result.stdout) \(result.stderr)")
        #expect(try source.scalar("SELECT unit_name FROM parks WHERE unit_code = 'DENA'") == "local")
        #expect(try package.scalar("SELECT unit_name FROM parks WHERE unit_code = 'DENA'") == "local")
        #expect(try PackageChangeTracking(connection: package).pendingChanges().isEmpty)
        // The source's change came down, clipped like the rest.
        #expect(try package.scalar("SELECT unit_name FROM parks WHERE unit_code = 'WRST'") == "Wrangell (office)")
        #expect(try package.scalar("SELECT ST_MaxX(geom) <= -140.0 FROM parks WHERE unit_code = 'WRST'") == 1)
    }

    @Test func rowsLeavingTheFilterLeaveThePackage() throws {
        let fixture = try SyncFixture()
        let url = try fixture.makePackage(arguments: ["--where", "airports:type = 'major'"])
        let package = try fixture.openPackage(url).connection
        let source = try fixture.openSource().connection
        let before = try package.scalar("SELECT count(*) FROM airports")?.int64Value ?? 0
        #expect(before > 0)
        try source.execute("UPDATE airports SET type = 'closed' WHERE name = 'Anchorage Int''l'")
        #expect(try fixture.sync(url).status == .completed)
        #expect(try package.scalar("SELECT count(*) FROM airports WHERE name = 'Anchorage Int''l'") == 0)
        try source.execute("UPDATE airports SET type = 'major' WHERE name = 'Anchorage Int''l'")
        #expect(try fixture.sync(url).leftArea == 0)
        #expect(try package.scalar("SELECT count(*) FROM airports WHERE name = 'Anchorage Int''l'") == 1)
    }

    @Test func uploadOnlyAndDownloadOnlyDirections() throws {
        let fixture = try SyncFixture()
        let url = try fixture.makePackage()
        let package = try fixture.openPackage(url).connection
        let source = try fixture.openSource().connection
        try package.execute("UPDATE airports SET type = 'up' WHERE name = 'Kodiak'")
        try source.execute("UPDATE airports SET type = 'down' WHERE name = 'Fairbanks Int''l'")

        let down = try fixture.sync(url, direction: .download)
        #expect(down.uploaded.total == 0 && down.downloaded.updated == 1)
        #expect(try source.scalar("SELECT type FROM airports WHERE name = 'Kodiak'") != "up")
        #expect(try package.scalar("SELECT type FROM airports WHERE name = 'Fairbanks Int''l'") == "down")
        #expect(try PackageChangeTracking(connection: package).pendingChanges().count == 1)

        try source.execute("UPDATE airports SET type = 'later' WHERE name = 'Fairbanks Int''l'")
        let up = try fixture.sync(url, direction: .upload)
        #expect(up.uploaded.updated == 1 && up.downloaded.total == 0)
        #expect(try source.scalar("SELECT type FROM airports WHERE name = 'Kodiak'") == "up")
        #expect(try package.scalar("SELECT type FROM airports WHERE name = 'Fairbanks Int''l'") == "down")
        // The source change an upload-only sync left behind comes with the next download.
        #expect(try fixture.sync(url, direction: .download).downloaded.updated == 1)
        #expect(try package.scalar("SELECT type FROM airports WHERE name = 'Fairbanks Int''l'") == "later")
    }
}
