import Foundation
import Geodatabase
import PkgBuildCLI
import SQLite
@testable import Sync
import TestSupport
import Testing

/// A clipped layer's attributes are the source's and sync; its geometries are the area's cut,
/// so a geometry edit, an insert or a delete is refused when written, by any client.
@Suite struct ClippedLayerTests {
    /// GDAL's layer API on the package's parks layer, as a field app on GDAL writes.
    func gdalLayer(_ path: String, _ body: String) throws -> ProcessResult {
        try runProcess("/usr/bin/python3", ["-c", """
            import sys
            from osgeo import ogr
            ogr.UseExceptions()
            ds = ogr.Open(sys.argv[1], 1)
            layer = ds.GetLayerByName('parks')
            layer.SetAttributeFilter("unit_code = 'DENA'")
            f = layer.GetNextFeature()
            layer.SetAttributeFilter(None)
            \(body)
            ds = None
            """, path])
    }

    @Test func attributeEditsSyncAndTheGeometryStaysTheSources() throws {
        let fixture = try SyncFixture()
        let url = try fixture.makePackage(arguments: ["--clip"])
        let data = url.appendingPathComponent("data.gpkg").path
        let edit = try gdalLayer(data, "f.SetField('unit_name', 'Denali (field)'); layer.SetFeature(f)")
        #expect(edit.status == 0, "\(edit.stderr)")
        let source = try fixture.openSource().connection
        let sourceGeometry = try source.scalar("SELECT geom FROM parks WHERE unit_code = 'DENA'")
        try source.execute("UPDATE parks SET unit_type = 'office' WHERE unit_code = 'WRST'")

        let result = CLI.run(["sync", url.path, "--source", fixture.sourcePath])
        #expect(result.exitCode == 0, "\(result.stdout) \(result.stderr)")
        #expect(try source.scalar("SELECT unit_name FROM parks WHERE unit_code = 'DENA'") == "Denali (field)")
        #expect(try source.scalar("SELECT geom FROM parks WHERE unit_code = 'DENA'") == sourceGeometry)
        let package = try fixture.openPackage(url).connection
        #expect(try package.scalar("SELECT unit_type FROM parks WHERE unit_code = 'WRST'") == "office")
        #expect(try package.scalar("SELECT ST_MaxX(geom) <= -140.0 FROM parks WHERE unit_code = 'WRST'") == 1)
        #expect(try PackageChangeTracking(connection: package).pendingChanges().isEmpty)
        try fixture.expectGDALValid(url)
    }

    @Test(arguments: [
        "g = f.GetGeometryRef().Clone(); g.Segmentize(0.01); f.SetGeometry(g); layer.SetFeature(f)",
        "n = ogr.Feature(layer.GetLayerDefn()); n.SetField('unit_code', 'NEW'); n.SetGeometry(f.GetGeometryRef()); layer.CreateFeature(n)",
        "layer.DeleteFeature(f.GetFID())",
    ])
    func geometryEditsInsertsAndDeletesAreRefusedWhenWritten(body: String) throws {
        let fixture = try SyncFixture()
        let url = try fixture.makePackage(arguments: ["--clip"])
        let data = url.appendingPathComponent("data.gpkg").path
        let before = try runProcess("sqlite3", [data, ".dump"]).stdout
        let result = try gdalLayer(data, body)
        #expect(result.status != 0)
        #expect(result.stderr.contains("pkgbuild: layer parks was clipped to the package's area; its geometries, inserts and deletes cannot sync"),
                "\(result.stderr)")
        #expect(try runProcess("sqlite3", [data, ".dump"]).stdout == before)
    }

    @Test func sqlite3IsRefusedTooAndAnAttributeUpdateThroughItPasses() throws {
        let fixture = try SyncFixture()
        let url = try fixture.makePackage(arguments: ["--clip"])
        let data = url.appendingPathComponent("data.gpkg").path
        let delete = try pythonSQLite(data, "DELETE FROM parks WHERE unit_code = 'DENA'")
        #expect(delete.status != 0 && delete.stderr.contains("was clipped to the package's area"), "\(delete.stderr)")
        let replace = try pythonSQLite(data, "INSERT OR REPLACE INTO parks (fid, geom, unit_code) SELECT fid, geom, 'X' FROM parks WHERE unit_code = 'DENA'")
        #expect(replace.status != 0 && replace.stderr.contains("was clipped"), "\(replace.stderr)")
        let update = try pythonSQLite(data, "UPDATE parks SET note = 'checked' WHERE unit_code = 'DENA'")
        #expect(update.status == 0, "\(update.stderr)")
    }

    @Test func editsFromBeforeTheTriggersAreConflictsThatTakeSourceDiscards() throws {
        let fixture = try SyncFixture()
        let url = try fixture.makePackage(arguments: ["--clip"])
        let package = try fixture.openPackage(url).connection
        // A package made before the triggers: the edits were recorded.
        for name in try package.query("SELECT name FROM sqlite_master WHERE type = 'trigger' AND name LIKE 'pkgbuild_clip_%'") {
            try package.execute("DROP TRIGGER \"\(name[0].stringValue ?? "")\"")
        }
        let denali = try #require(try package.scalar("SELECT globalid FROM parks WHERE unit_code = 'DENA'")?.stringValue)
        try package.execute("DELETE FROM parks WHERE unit_code = 'DENA'")
        let first = CLI.run(["sync", url.path, "--source", fixture.sourcePath])
        #expect(first.exitCode == 2, "\(first.stdout) \(first.stderr)")
        let source = try fixture.openSource().connection
        #expect(try source.scalar("SELECT count(*) FROM parks WHERE unit_code = 'DENA'") == 1)
        #expect(try package.scalar("SELECT count(*) FROM parks WHERE unit_code = 'DENA'") == 0)
        // The sync put the triggers back.
        #expect(try package.scalar("SELECT count(*) FROM sqlite_master WHERE name LIKE 'pkgbuild_clip_parks_%'") == 3)
        let image = try package.query("SELECT package_value FROM pkgbuild_conflicts WHERE globalid = ?", [.text(denali)])
            .compactMap { $0[0].stringValue }
        #expect(image.contains { $0.contains("unit_code=") && $0.contains("DENA") }, "\(image)")

        #expect(CLI.run(["resolve", url.path, "--id", denali, "--take", "source"]).exitCode == 0)
        let second = CLI.run(["sync", url.path, "--source", fixture.sourcePath])
        #expect(second.exitCode == 0, "\(second.stdout) \(second.stderr)")
        #expect(try package.scalar("SELECT count(*) FROM parks WHERE unit_code = 'DENA'") == 1)
        #expect(try PackageChangeTracking(connection: package).pendingChanges().isEmpty)
        #expect(try source.scalar("SELECT count(*) FROM parks WHERE unit_code = 'DENA'") == 1)
    }

    /// Each kind of edit that cannot sync is refused by `edit` in its own words, before it
    /// checks the values or writes anything; the attribute edit of the same feature passes.
    @Test(arguments: [
        ("a delete", ["--delete"]),
        ("a geometry edit", ["--geometry", "POLYGON((-150 63,-149 63,-149 64,-150 63))"]),
        ("a geometry edit", ["--move", "-150,63", "--set", "no_such_field=1"]),
        ("an insert", ["--add", "--set", "unit_code=NEW", "--geometry", "POLYGON((-150 63,-149 63,-149 64,-150 63))"]),
    ])
    func editRefusesEarlyWithTheReason(kind: String, edit: [String]) throws {
        let fixture = try SyncFixture()
        let url = try fixture.makePackage(arguments: ["--clip"])
        let data = url.appendingPathComponent("data.gpkg").path
        let denali = try #require(try fixture.openPackage(url).connection.scalar("SELECT globalid FROM parks WHERE unit_code = 'DENA'")?.stringValue)
        let before = try runProcess("sqlite3", [data, ".dump"]).stdout
        let target = edit.first == "--add" ? [] : ["--id", denali]
        let refused = CLI.run(["edit", url.path, "--layer", "parks"] + target + edit)
        #expect(refused.exitCode == 1, "\(refused.stderr)")
        #expect(refused.stderr.contains("\(kind) in layer 'parks' is refused") && refused.stderr.contains("was clipped")
                && refused.stderr.contains("its attributes can be edited"), "\(refused.stderr)")
        #expect(!refused.stderr.contains("RAISE") && !refused.stderr.contains("SQLite error"), "\(refused.stderr)")
        #expect(try runProcess("sqlite3", [data, ".dump"]).stdout == before)
        let set = CLI.run(["edit", url.path, "--layer", "parks", "--id", denali, "--set", "note=checked"])
        #expect(set.exitCode == 0, "\(set.stderr)")
        #expect(try fixture.openPackage(url).connection.scalar("SELECT note FROM parks WHERE unit_code = 'DENA'") == "checked")
    }
}
