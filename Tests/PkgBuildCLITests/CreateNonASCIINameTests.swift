import Foundation
import PkgBuildCLI
import Testing
import TestSupport

/// A layer whose name has a capital beyond ASCII: SQLite's `lower()` folds A-Z only, so the
/// metadata `create` copies for `Étangs` is found by the name as SQLite folds it ('Étangs'),
/// not by a full Unicode lowercasing ('étangs', which `lower(table_name)` never equals).
@Suite struct CreateNonASCIINameTests {
    static let makeSource = """
        import sys
        from osgeo import ogr, osr
        ogr.UseExceptions()
        ds = ogr.GetDriverByName('GPKG').CreateDataSource(sys.argv[1])
        srs = osr.SpatialReference(); srs.ImportFromEPSG(4326)
        layer = ds.CreateLayer('Étangs', srs, ogr.wkbPoint)
        layer.CreateField(ogr.FieldDefn('nom', ogr.OFTString))
        f = ogr.Feature(layer.GetLayerDefn()); f.SetField('nom', 'Lac'); f.SetGeometry(ogr.CreateGeometryFromWkt('POINT(7.1 46.2)'))
        layer.CreateFeature(f)
        ds = None
        """

    func sqlite(_ path: String, _ sql: String) throws -> String {
        let r = try runProcess("sqlite3", [path, sql])
        #expect(r.status == 0, "\(r.stderr)")
        return r.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test func dataColumnsOfAnAccentedCapitalLayerAreCopied() throws {
        let dir = try TemporaryDirectory()
        let source = dir.path("ponds.gpkg")
        let made = try runProcess("/usr/bin/python3", ["-c", Self.makeSource, source])
        #expect(made.status == 0, "\(made.stderr)")
        _ = try sqlite(source, """
            CREATE TABLE gpkg_data_columns (table_name TEXT NOT NULL, column_name TEXT NOT NULL, name TEXT, title TEXT,
              description TEXT, mime_type TEXT, constraint_name TEXT, CONSTRAINT pk_gdc PRIMARY KEY (table_name, column_name),
              CONSTRAINT gdc_tn UNIQUE (table_name, name));
            INSERT INTO gpkg_data_columns VALUES ('Étangs', 'nom', 'nom', 'Nom du lac', NULL, NULL, NULL);
            """)
        let output = dir.path("ponds.pkg")
        let r = CLI.run(["create", "--area=7.05,46.15,7.15,46.25", "--no-register", "--features", source, "-o", output])
        #expect(r.exitCode == 0, "\(r.stderr)")
        let data = output + "/data.gpkg"
        #expect(try sqlite(data, "SELECT count(*) FROM \"Étangs\"") == "1")
        #expect(try sqlite(data, "SELECT table_name || '.' || column_name || ': ' || title FROM gpkg_data_columns")
                == "Étangs.nom: Nom du lac")
    }
}
