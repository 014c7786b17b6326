import Foundation
import Geodatabase
import Geometry
import PkgBuildCLI
import SQLite
@testable import Sync
import TestSupport
import Testing

/// Every write matches the layer's declared geometry type and dimensions: create, download,
/// upload and `edit`; GDAL's validator judges the files.
@Suite struct GeometryTypeTests {
    /// A polygon and a line that cross the default area's east edge (x = -140).
    static let edges = """
        layer('poly', ogr.wkbPolygon, 'POLYGON ((-141 61,-139 61,-139 62,-141 62,-141 61))', 'edge')
        layer('line', ogr.wkbLineString, 'LINESTRING (-141 61,-139 62)', 'edge')
        """

    /// The type a table's SQL declares for its geometry column, and gpkg_geometry_columns'.
    func declaredTypes(_ connection: Connection, _ table: String) throws -> [String?] {
        [try connection.scalar("SELECT type FROM pragma_table_info(?) WHERE name = 'geom'", [.text(table)])?.stringValue,
         try connection.scalar("SELECT geometry_type_name FROM gpkg_geometry_columns WHERE table_name = ?", [.text(table)])?.stringValue]
    }

    @Test("create --clip: polygon and line layers are Multi in the table's SQL and in gpkg_geometry_columns, and GDAL validates")
    func clippedLayersAreMulti() throws {
        let source = try GDALLayerSource(extra: Self.edges)
        let url = try source.makePackage(["--clip"])
        let package = try GeoPackage(path: source.dataPath(url)).connection
        #expect(try declaredTypes(package, "poly") == ["MULTIPOLYGON", "MULTIPOLYGON"])
        #expect(try declaredTypes(package, "line") == ["MULTILINESTRING", "MULTILINESTRING"])
        #expect(try declaredTypes(package, "pointz") == ["POINT", "POINT"])
        #expect(try source.wkt(source.dataPath(url), layer: "poly", feature: "edge")
            == "MULTIPOLYGON (((-141 61,-141 62,-140 62,-140 61,-141 61)))")
        #expect(try source.wkt(source.dataPath(url), layer: "poly") == "MULTIPOLYGON (((-150 61,-149 61,-149 62,-150 62,-150 61)))")
        let findings = try GDALValidator.findings(source.dataPath(url))
        #expect(findings.isEmpty, "\(findings)")

        // An office edit of a clipped layer comes down clipped and Multi.
        try source.setGeometry(source.sourcePath, layer: "poly", feature: "edge",
                               wkt: "POLYGON ((-141 60,-139 60,-139 62,-141 62,-141 60))")
        try source.setGeometry(source.sourcePath, layer: "line", feature: "edge", wkt: "LINESTRING (-141 60,-139 62)")
        let report = try source.sync(url)
        #expect(report.downloaded.updated == 2, "\(report)")
        #expect(try source.wkt(source.dataPath(url), layer: "poly", feature: "edge")
            == "MULTIPOLYGON (((-141 60,-141 62,-140 62,-140 60,-141 60)))")
        #expect(try source.wkt(source.dataPath(url), layer: "line", feature: "edge") == "MULTILINESTRING ((-141 60,-140 61))")
        #expect(try package.scalar("SELECT count(*) FROM poly WHERE ST_GeometryType(geom) != 'MULTIPOLYGON'") == 0)
        let after = try GDALValidator.findings(source.dataPath(url))
        #expect(after.isEmpty, "\(after)")
        // The next sync finds nothing to do: the download and create took the same path.
        let again = try source.sync(url)
        #expect(again.downloaded.total == 0 && again.uploaded.total == 0, "\(again)")
    }

    @Test("create and download take one geometry path: a clipped, reprojected row brought down again is identical to what create wrote")
    func downloadMatchesCreate() throws {
        let source = try GDALLayerSource(extra: Self.edges)
        let url = try source.makePackage(["--clip", "--crs", "EPSG:3338"])
        let package = try GeoPackage(path: source.dataPath(url)).connection
        let geometries = {
            try package.query("SELECT name, geom FROM poly UNION ALL SELECT name, geom FROM line ORDER BY 1").map { row in
                (row[0].stringValue ?? "", try GeoPackageBinary(bytes: row[1].blobValue ?? []))
            }
        }
        let created = try geometries()
        // An attribute edit at the source brings each row down again, geometry and all.
        try GeoPackage(path: source.sourcePath).connection.execute("""
            UPDATE poly SET name = name || ' (office)'; UPDATE line SET name = name || ' (office)'
            """)
        let report = try source.sync(url)
        #expect(report.downloaded.updated == 4, "\(report)")
        let downloaded = try geometries()
        #expect(downloaded.map(\.0) == created.map { $0.0 + " (office)" })
        for ((name, before), (_, after)) in zip(created, downloaded) {
            #expect(after.holdsSameGeometry(as: before), "\(name): \(before.geometry.wkt) became \(after.geometry.wkt)")
        }
        #expect(try declaredTypes(package, "poly") == ["MULTIPOLYGON", "MULTIPOLYGON"])
        let findings = try GDALValidator.findings(source.dataPath(url))
        #expect(findings.isEmpty, "\(findings)")
    }

    @Test("create refuses a source feature its layer's declared type does not take, naming layer and fid; nothing is left")
    func createRefusesAMisfit() throws {
        let source = try GDALLayerSource(extra: """
            layer('pointz', ogr.wkbPoint25D, 'POLYGON Z ((-150 61 1,-149 61 1,-149 62 1,-150 61 1))', 'misfit')
            """)
        let url = source.directory.url.appendingPathComponent("area.pkg")
        let result = CLI.run(["create", "--area=-160,57,-140,66", "--features", source.sourcePath, "--output", url.path])
        #expect(result.exitCode == 1, "\(result.stderr)")
        #expect(result.stderr.contains("layer pointz, fid 2") && result.stderr.contains("a POLYGON cannot go into a POINT column"),
                "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: url.path))
    }

    @Test("upload: a polygon into a point layer, or Z into a 2-D layer, written by GDAL, is a constraint conflict kept pending")
    func uploadRefusesWhatTheSourceColumnDoesNotTake() throws {
        let source = try GDALLayerSource()
        let url = try source.makePackage()
        try source.setGeometry(source.dataPath(url), layer: "pointz", wkt: "POLYGON ((-150 61,-149 61,-149 62,-150 61))")
        try source.setGeometry(source.dataPath(url), layer: "poly", wkt: "POLYGON Z ((-150 61 1,-149 61 1,-149 62 1,-150 61 1))")
        let sourceDB = try GeoPackage(path: source.sourcePath).connection
        let before = try sourceDB.query("SELECT hex(geom) FROM pointz UNION ALL SELECT hex(geom) FROM poly").map { $0[0] }

        let report = try source.sync(url, policy: .packageWins)
        let refused = report.conflicts.filter { $0.kind == .constraint }
        #expect(Set(refused.map(\.table)) == ["pointz", "poly"], "\(report.conflicts)")
        #expect(refused.contains { $0.message?.contains("a POLYGON cannot go into a POINT column") == true })
        #expect(refused.contains { $0.message?.contains("takes no Z values") == true })
        #expect(report.uploaded.total == 0 && report.hasUnresolved)
        #expect(try sourceDB.query("SELECT hex(geom) FROM pointz UNION ALL SELECT hex(geom) FROM poly").map { $0[0] } == before)
        #expect(Set(try PendingEdits.list(package: url).edits.map(\.table)) == ["pointz", "poly"])
    }

    @Test("download: a source geometry the package's column cannot take stops the sync, named; no row changes on either side")
    func downloadRefusesAMisfit() throws {
        let source = try GDALLayerSource()
        let url = try source.makePackage()
        try GDALLayerSource.gdal("""
            ds = ogr.Open(sys.argv[1], 1); lyr = ds.GetLayerByName('pointz')
            f = ogr.Feature(lyr.GetLayerDefn()); f.SetField('name', 'misfit')
            f.SetGeometry(ogr.CreateGeometryFromWkt('POLYGON Z ((-150 61 1,-149 61 1,-149 62 1,-150 61 1))')); lyr.CreateFeature(f)
            """, [source.sourcePath])
        // The layers' rows, on both sides. (The sync's own bookkeeping, its pending id in the
        // package and its record at the source, stays for the retry to resume.)
        let layers = { (path: String) in
            try GDALLayerSource.layers.map { try runProcess("/usr/bin/sqlite3", [path, ".dump \($0.name)"]).stdout }
        }
        let before = (try layers(source.dataPath(url)), try layers(source.sourcePath))
        #expect {
            try source.sync(url)
        } throws: { error in
            "\(error)".contains("layer 'pointz' row ") && "\(error)".contains("a POLYGON cannot go into a POINT column")
        }
        #expect(try layers(source.dataPath(url)) == before.0)
        #expect(try layers(source.sourcePath) == before.1)
    }

    @Test("edit refuses a polygon for a point layer and Z for a 2-D layer, and changes nothing")
    func editRefuses() throws {
        let source = try GDALLayerSource()
        let url = try source.makePackage()
        let dump = { try runProcess("/usr/bin/sqlite3", [source.dataPath(url), ".dump"]).stdout }
        let before = try dump()
        let polygon = CLI.run(["edit", url.path, "--layer", "pointz", "--id", "1",
                               "--geometry", "POLYGON ((-150 61, -149 61, -149 62, -150 61))"])
        #expect(polygon.exitCode != 0 && polygon.stderr.contains("pointz") && polygon.stderr.contains("POLYGON"), "\(polygon.stderr)")
        let z = CLI.run(["edit", url.path, "--layer", "poly", "--id", "1",
                         "--geometry", "POLYGON Z ((-150 61 1, -149 61 1, -149 62 1, -150 61 1))"])
        #expect(z.exitCode != 0 && z.stderr.contains("poly") && z.stderr.contains("Z"), "\(z.stderr)")
        #expect(try dump() == before)
    }
}
