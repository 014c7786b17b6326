import Foundation
import Testing
import PkgBuildCLI
import TestSupport

@Suite struct SourceEnableTests {
    @Test func enablesAllTablesAndTracksGDALEdits() throws {
        let directory = try TemporaryDirectory()
        let source = try directory.copy(testdata: "ne_parks.gpkg")

        let enable = CLI.run(["source", "enable", source])
        #expect(enable.exitCode == 0, "\(enable.stderr)")
        #expect(enable.stdout.contains("Enabled sync on \(source)"))
        #expect(enable.stdout.contains("parks  fid  added column globalid"))

        // Every row got a distinct id, as sqlite3 sees it.
        let rows = try ogrFeatureCount(source, layer: "parks")
        #expect(try sqliteScalar(source, "SELECT count(DISTINCT globalid) FROM parks WHERE globalid IS NOT NULL") == "\(rows)")

        let before = try parseJSONObject(CLI.run(["source", "status", source, "--json"]).stdout)
        #expect(before["generation"] as? Int == 0)

        // An edit made by another client (GDAL) goes through our triggers.
        let edit = try runProcess("ogrinfo", [source, "-sql", "UPDATE parks SET unit_name='X' WHERE fid=3"])
        #expect(edit.status == 0, "\(edit.stderr)")
        let after = try parseJSONObject(CLI.run(["source", "status", source, "--json"]).stdout)
        #expect(after["generation"] as? Int == 1)
        #expect(try sqliteScalar(source, """
            SELECT operation FROM pkgbuild_changes WHERE table_name = 'parks'
              AND globalid = (SELECT globalid FROM parks WHERE fid = 3)
            """) == "update")
    }

    @Test func secondRunChangesNothing() throws {
        let directory = try TemporaryDirectory()
        let source = try directory.copy(testdata: "ne_parks.gpkg")
        #expect(CLI.run(["source", "enable", source]).exitCode == 0)
        let dump = try sqliteDump(source)

        let again = CLI.run(["source", "enable", source])
        #expect(again.exitCode == 0, "\(again.stderr)")
        #expect(again.stdout == "\(source) is already sync-enabled; nothing changed (1 table tracked, generation 0).\n")
        #expect(try sqliteDump(source) == dump)

        let json = try parseJSONObject(CLI.run(["source", "enable", source, "--json"]).stdout)
        #expect(json["changed"] as? Bool == false)
        #expect(json["was_enabled"] as? Bool == true)
        #expect(try sqliteDump(source) == dump)
    }

    @Test func adoptsAnExistingGlobalIDColumnAndHonoursNoWAL() throws {
        let directory = try TemporaryDirectory()
        let source = try directory.copy(testdata: "ne_parks.gpkg")
        // As Esri-made GeoPackages have it: a GlobalID text column, already filled.
        let prepare = try runProcess("ogrinfo", [source, "-sql", "ALTER TABLE parks ADD COLUMN GlobalID TEXT"])
        #expect(prepare.status == 0, "\(prepare.stderr)")
        // Through GDAL: the R-tree triggers of its file call functions plain sqlite3 lacks.
        let fill = try runProcess("ogrinfo", [source, "-sql",
                                              "UPDATE parks SET GlobalID = '{00000000-0000-4000-8000-' || printf('%012d', fid) || '}'"])
        #expect(fill.status == 0, "\(fill.stderr)")
        let journalBefore = try sqliteScalar(source, "PRAGMA journal_mode")

        let result = CLI.run(["source", "enable", source, "--table", "parks", "--no-wal", "--json"])
        #expect(result.exitCode == 0, "\(result.stderr)")
        let json = try parseJSONObject(result.stdout)
        let tables = try #require(json["tables"] as? [[String: Any]])
        #expect(tables.count == 1)
        #expect(tables.first?["global_id_column"] as? String == "GlobalID")
        #expect(tables.first?["global_id"] as? String == "adopted")
        #expect(json["changed"] as? Bool == true)
        #expect(json["journal_mode"] as? String == journalBefore)
        #expect(try sqliteScalar(source, "PRAGMA journal_mode") == journalBefore)
        // Existing ids kept, no second column added.
        #expect(try sqliteScalar(source, "SELECT GlobalID FROM parks WHERE fid = 7") == "{00000000-0000-4000-8000-000000000007}")
        #expect(try sqliteScalar(source, "SELECT count(*) FROM pragma_table_info('parks') WHERE lower(name) = 'globalid'") == "1")
    }

    @Test func unknownTableIsAnErrorAndChangesNothing() throws {
        let directory = try TemporaryDirectory()
        let source = try directory.copy(testdata: "ne_parks.gpkg")
        let dump = try sqliteDump(source)
        let result = CLI.run(["source", "enable", source, "--table", "nosuch", "--no-wal"])
        #expect(result.exitCode == 1)
        #expect(result.stderr == "Error: \(source): no table named 'nosuch'\n")
        #expect(try sqliteDump(source) == dump)
    }

    /// A table larger than one slice of the fill, with keys far apart and below zero: every row
    /// gets a distinct id, and a terminal sees the rows counted as they are filled.
    @Test func fillsALargeSparseTableInSlicesWithProgress() throws {
        let directory = try TemporaryDirectory()
        let source = try directory.copy(testdata: "ne_parks.gpkg")
        let created = try pythonSQLite(source, """
            CREATE TABLE visits (id INTEGER PRIMARY KEY, note TEXT);
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 45000)
            INSERT INTO visits SELECT CASE WHEN i % 3 = 0 THEN -i * 1000003 ELSE i * 7919 END, 'v' || i FROM n;
            INSERT INTO gpkg_contents (table_name, data_type, identifier) VALUES ('visits', 'attributes', 'visits');
            """)
        try #require(created.status == 0, "\(created.stderr)")
        let enable = CLI.run(["source", "enable", source, "--table", "visits"], isTerminal: true)
        #expect(enable.exitCode == 0, "\(enable.stderr)")
        #expect(try sqliteScalar(source, "SELECT count(*) || ' ' || count(globalid) || ' ' || count(DISTINCT globalid) FROM visits")
                == "45000 45000 45000")
        #expect(enable.stderr.contains("\rvisits [") && enable.stderr.contains("45000/45000  100%"), "\(enable.stderr)")
    }
}
