import Foundation
import PkgBuildCLI
import Testing
import TestSupport

/// `create` from sources beyond the demo: a GDAL-written GeoPackage whose relation is a
/// Related Tables Extension mapping table, and basemap tiles fetched over HTTP.
@Suite("create: mapping tables and HTTP tiles")
struct CreateSourcesTests {
    func sqlite(_ path: String, _ sql: String) throws -> String {
        let r = try runProcess("sqlite3", [path, sql])
        #expect(r.status == 0, "\(r.stderr)")
        return r.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The relation as GDAL reads it: name, left and right tables, mapping table, cardinality, related table type.
    func gdalRelation(_ path: String) throws -> String {
        let script = """
            import sys
            from osgeo import gdal
            ds = gdal.OpenEx(sys.argv[1])
            for n in ds.GetRelationshipNames() or []:
                r = ds.GetRelationship(n)
                print(n, r.GetLeftTableName(), r.GetRightTableName(), r.GetMappingTableName(), r.GetCardinality(),
                      ",".join(r.GetLeftTableFields()), ",".join(r.GetRightTableFields()), r.GetRelatedTableType())
            """
        let r = try runProcess("/usr/bin/python3", ["-c", script, path])
        #expect(r.status == 0, "\(r.stderr)")
        return r.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// trees 1 -> inspections 1, 2 and tree 3 -> inspection 3 through trees_inspections
    /// (related_gdal.json). An area around tree 1 (7.1, 46.2) only: its inspections come as
    /// related rows, and of the mapping rows only those whose both ends were packaged.
    @Test func relatedTablesMappingRowsWithBothEndsPackaged() throws {
        let dir = try TemporaryDirectory()
        let source = try dir.copy(testdata: "fixtures/geodatabase/related.gpkg")
        #expect(CLI.run(["source", "enable", source]).exitCode == 0)
        let output = dir.path("trees.pkg")
        let r = CLI.run(["create", "--area=7.05,46.15,7.15,46.25", "--features", source, "-o", output])
        #expect(r.exitCode == 0, "\(r.stderr)")
        let data = output + "/data.gpkg"
        #expect(try sqlite(data, "SELECT group_concat(fid) FROM (SELECT fid FROM trees ORDER BY fid)") == "1")
        #expect(try sqlite(data, "SELECT group_concat(fid) FROM (SELECT fid FROM inspections ORDER BY fid)") == "1,2")
        #expect(try sqlite(data, "SELECT group_concat(base_id || '-' || related_id) FROM (SELECT * FROM trees_inspections ORDER BY 1, 2)") == "1-1,1-2")
        // GDAL reads the same relation from the package as from the source.
        let relation = try gdalRelation(data)
        #expect(!relation.isEmpty)
        let sourceRelation = try gdalRelation(source)
        #expect(relation == sourceRelation, "\(relation)")
        #expect(relation.contains("trees inspections trees_inspections"), "\(relation)")
        let validation = try runProcess("/usr/bin/python3", [GDALValidator.script, data])
        #expect(validation.status == 0 && validation.stdout.isEmpty && validation.stderr.isEmpty, "\(validation.stdout)\(validation.stderr)")
        // inspect lists the two layers (the mapping table travels with its relation) and no warnings.
        let inspect = CLI.run(["inspect", output, "--json"])
        #expect(inspect.exitCode == 0, "\(inspect.stderr)")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(inspect.stdout.utf8)) as? [String: Any])
        #expect((document["warnings"] as? [Any])?.isEmpty == true, "\(inspect.stdout)")

        // The mapping rows keep the source's globalids, so that sync can match link edits.
        let ids = try sqlite(data, "SELECT group_concat(globalid) FROM (SELECT globalid FROM trees_inspections ORDER BY base_id, related_id)")
        let sourceIDs = try sqlite(source, "SELECT group_concat(globalid) FROM (SELECT globalid FROM trees_inspections WHERE base_id = 1 ORDER BY base_id, related_id)")
        #expect(!ids.isEmpty && ids == sourceIDs)
        // And the mapping table is under change tracking, like the layers.
        #expect(try sqlite(data, "SELECT count(*) FROM pkgbuild_tables WHERE table_name = 'trees_inspections'") == "1")

        // Without related rows, the inspections stay out, and so do all mapping rows.
        let alone = dir.path("alone.pkg")
        #expect(CLI.run(["create", "--area=7.05,46.15,7.15,46.25", "--features", source, "--no-related", "-o", alone]).exitCode == 0)
        #expect(try sqlite(alone + "/data.gpkg", "SELECT count(*) FROM inspections") == "0")
        #expect(try sqlite(alone + "/data.gpkg", "SELECT count(*) FROM trees_inspections") == "0")
    }

    /// Tiles from the test tile server on 127.0.0.1 (serving ne_raster_z0-5.mbtiles): the
    /// package holds exactly the tiles the file source gives for the same area, and the
    /// manifest names the template.
    @Test func basemapFromAnHTTPTemplate() throws {
        let server = try TestTileServer()
        let dir = try TemporaryDirectory()
        let source = try dir.copy(testdata: "demo/alaska_source.gpkg")
        let template = server.baseURL + "/{z}/{x}/{y}.png"
        let overHTTP = dir.path("http.pkg"), fromFile = dir.path("file.pkg")
        let r = CLI.run(["create", "--area=\(InspectFixture.area)", "--features", source, "--tiles", template, "--zoom", "0-5",
                         "--concurrency", "2", "-o", overHTTP])
        let stats = try server.stop()
        #expect(r.exitCode == 0, "\(r.stderr)")
        #expect(CLI.run(["create", "--area=\(InspectFixture.area)", "--features", source, "--tiles",
                         TestData.url("ne_raster_z0-5.mbtiles").path, "--zoom", "0-5", "-o", fromFile]).exitCode == 0)
        let dump = "SELECT zoom_level, tile_column, tile_row, hex(tile_data) FROM tiles ORDER BY 1, 2, 3"
        let httpTiles = try sqlite(overHTTP + "/basemap.mbtiles", dump)
        let fileTiles = try sqlite(fromFile + "/basemap.mbtiles", dump)
        #expect(!httpTiles.isEmpty && httpTiles == fileTiles)
        #expect(stats.requests == 7, "\(stats.counts)")
        #expect(stats.max_connections <= 2)
        let manifest = try String(contentsOfFile: overHTTP + "/manifest.json", encoding: .utf8)
        #expect(manifest.contains("\"source\" : \"\(template)\""), "\(manifest)")
        let gdal = try runProcess("gdalinfo", [overHTTP + "/basemap.mbtiles"])
        #expect(gdal.status == 0, "\(gdal.stderr)")
        let inspect = CLI.run(["inspect", overHTTP, "--json"])
        #expect(inspect.stdout.contains("\"source\": \"\(template)\""), "\(inspect.stdout)")
        #expect(!inspect.stdout.contains("\"code\""), "\(inspect.stdout)")
    }
}
