import Foundation
import PkgBuildCLI
import SQLite
import Testing
import TestSupport
@testable import PostgreSQLSource

/// `pkgbuild create` and `estimate` from PostGIS against the same from the GeoPackage GDAL
/// loaded the database from: the packages hold the same rows, column for column, geometries
/// compared as geometries; GDAL opens and validates the PostgreSQL one.
@Suite("create from PostgreSQL", .enabled(if: PostgreSQLTestServer.isAvailable, Comment(rawValue: PostgreSQLTestServer.unavailableNote)))
struct CreateFromPostgreSQLTests {
    static let cuts: [[String]] = [[], ["--where", "airports:type = 'major'"], ["--clip"], ["--clip", "--crs", "EPSG:3857"],
                                   ["--where", "parks:scalerank >= 4 AND name LIKE '%n pres%'"]]

    @Test("a package cut from PostGIS holds what one cut from the GeoPackage holds", arguments: cuts)
    func sameRowsAsTheGeoPackage(_ arguments: [String]) throws {
        let f = try CreateFixture()
        let (fromGeoPackage, fromPostgreSQL) = try f.createBoth(arguments)
        let tables = try PackageData.tables(fromGeoPackage)
        #expect(tables == ["airports", "park_visitors", "parks"])
        #expect(try PackageData.tables(fromPostgreSQL) == tables)
        for table in tables {
            let expected = try PackageData.rows(table, by: "globalid", in: fromGeoPackage)
            #expect(!expected.isEmpty, "\(table): the cut took no rows, so the comparison shows nothing")
            let actual = try PackageData.rows(table, by: "globalid", in: fromPostgreSQL)
            #expect(actual.keys.sorted() == expected.keys.sorted(), "\(table) \(arguments)")
            for (key, row) in expected where actual[key] != row {
                Issue.record("\(table) \(key): \(String(describing: actual[key])) is not \(row)")
            }
        }
        // The area narrowed the rows, and the relationship took only the area's parks' visitors.
        #expect(try PackageData.rows("parks", by: "globalid", in: fromPostgreSQL).count < 13)
        #expect(try PackageData.rows("park_visitors", by: "globalid", in: fromPostgreSQL).count < 13)
        let relationships = try PackageData.connection(fromPostgreSQL).query(
            "SELECT name, origin_table, origin_key, destination_table, destination_key, cardinality FROM pkgbuild_relationships")
        #expect(relationships.map { $0.map { $0.stringValue ?? "" } } == [["parks_visitors", "parks", "unit_code", "park_visitors", "unit_code", "one-to-one"]])
        let path = fromPostgreSQL.appendingPathComponent("data.gpkg").path
        #expect(try GDALValidator.findings(path) == "")
        let info = try runProcess("ogrinfo", ["-ro", "-so", "-al", path])
        #expect(info.status == 0 && info.stdout.contains("Layer name: parks"), "\(info.stderr)")
    }

    @Test("the manifest names the source without a secret, kind postgresql")
    func manifest() throws {
        let f = try CreateFixture()
        let (_, fromPostgreSQL) = try f.createBoth()
        let manifest = try String(contentsOf: fromPostgreSQL.appendingPathComponent("manifest.json"), encoding: .utf8)
        #expect(manifest.contains("\"kind\" : \"postgresql\""), "\(manifest.prefix(600))")
        #expect(manifest.contains("dbname=\(f.database.name)") && manifest.contains("schemas=public"), "\(manifest.prefix(600))")
    }

    @Test("foreign keys are relationships: the related rows come as through a declared one")
    func foreignKeysRelate() throws {
        let f = try CreateFixture(declareRelationship: false)
        try f.psql("""
            ALTER TABLE parks ADD CONSTRAINT parks_unit_code UNIQUE (unit_code);
            ALTER TABLE park_visitors ADD FOREIGN KEY (unit_code) REFERENCES parks (unit_code)
            """)
        let (fromGeoPackage, fromPostgreSQL) = try f.createBoth()
        let expected = try PackageData.rows("park_visitors", by: "globalid", in: fromGeoPackage)
        #expect(try PackageData.rows("park_visitors", by: "globalid", in: fromPostgreSQL) == expected)
        #expect(expected.count < 13)
        let relationship = try PackageData.connection(fromPostgreSQL).query(
            "SELECT origin_table, origin_key, destination_table, destination_key, cardinality FROM pkgbuild_relationships")
        #expect(relationship.map { $0.map { $0.stringValue ?? "" } } == [["parks", "unit_code", "park_visitors", "unit_code", "one-to-one"]])
    }

    @Test("estimate from PostGIS counts what one from the GeoPackage counts", arguments: [[], ["--where", "airports:type = 'major'"]])
    func estimate(_ arguments: [String]) throws {
        let f = try CreateFixture()
        func estimate(_ source: String) throws -> String {
            let result = CLI.run(["estimate", CreateFixture.area, "--features", source, "--json"] + arguments)
            try #require(result.exitCode == 0, "estimate from \(source): \(result.stderr)")
            // The demo GeoPackage is sync-enabled (a generation), the database is not (null).
            return result.stdout.split(separator: "\n").filter { !$0.contains("\"generation\"") }.joined(separator: "\n")
        }
        let expected = try estimate(f.geoPackage)
        #expect(expected.contains("\"related\": 7"), "\(expected)")
        #expect(try estimate(f.address) == expected)
    }

    @Test("a --where naming a missing column is refused, naming it, and nothing is written")
    func whereOnAMissingColumn() throws {
        let f = try CreateFixture()
        let (url, result) = f.create("missing.pkg", from: f.address, ["--where", "airports:nothing_here = 1"])
        #expect(result.exitCode != 0)
        #expect(result.stderr.contains("nothing_here"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: url.path))
    }

    @Test("a --where comparing a number column with text that is no number is PostgreSQL's error, nothing written")
    func whereTextAgainstANumber() throws {
        let f = try CreateFixture()
        let (url, result) = f.create("text-number.pkg", from: f.address, ["--where", "airports:scalerank = 'abc'"])
        #expect(result.exitCode == 1)
        #expect(result.stderr.contains("invalid input syntax for type integer") && result.stderr.contains("abc"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: url.path))
    }

    @Test("a --where's text is data: quotes and SQL in it select nothing and change nothing")
    func hostileWhere() throws {
        let f = try CreateFixture()
        for text in ["x'; DROP TABLE airports; --", "' OR '1'='1", "\\'; DELETE FROM parks; --", "$1", "Anchorage Int'l\" OR 1=1"] {
            let escaped = text.replacingOccurrences(of: "'", with: "''")
            let (geoPackage, postgreSQL) = try f.createBoth(["--where", "airports:name = '\(escaped)' OR type = 'none'"])
            #expect(try PackageData.rows("airports", by: "globalid", in: postgreSQL).isEmpty, "\(text)")
            #expect(try PackageData.rows("airports", by: "globalid", in: geoPackage).isEmpty, "\(text)")
        }
        #expect(try f.psql("SELECT count(*) FROM airports") == "9")
        #expect(try f.psql("SELECT count(*) FROM parks") == "13")
        // The one quoted name that is there is found, quote and all.
        let (_, postgreSQL) = try f.createBoth(["--where", "airports:name = 'Anchorage Int''l'"])
        #expect(try PackageData.rows("airports", by: "globalid", in: postgreSQL).count == 1)
    }

    @Test("a table without a primary key is refused by name; the others can still be taken")
    func tableWithoutPrimaryKey() throws {
        let f = try CreateFixture()
        try f.psql("CREATE TABLE notes_without_key (note text)")
        let (url, result) = f.create("nokey.pkg", from: f.address)
        #expect(result.exitCode == 1)
        #expect(result.stderr.contains("notes_without_key") && result.stderr.contains("primary key"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: url.path))
        let chosen = f.create("chosen.pkg", from: f.address, ["--layer", "parks", "--layer", "airports"])
        #expect(chosen.result.exitCode == 0, "\(chosen.result.stderr)")
    }

    @Test("a schema and names that need quoting: the package holds the table and values as mapped")
    func oddNamesInAnotherSchema() throws {
        let f = try CreateFixture(declareRelationship: false)
        try f.psql("""
            CREATE SCHEMA "Field Work";
            CREATE TABLE "Field Work"."Odd ""quoted"" Sites" (id bigserial PRIMARY KEY, "Site Name" text NOT NULL,
              "Visited At" timestamptz, "Depth (m)" numeric(6,2), geom geometry(Point, 4326));
            CREATE INDEX ON "Field Work"."Odd ""quoted"" Sites" USING gist (geom);
            INSERT INTO "Field Work"."Odd ""quoted"" Sites" ("Site Name", "Visited At", "Depth (m)", geom) VALUES
              ('in ''one''', '2026-03-04 05:06:07.654321-09', 1.5, 'SRID=4326;POINT(-150 61)'),
              ('in two', NULL, NULL, 'SRID=4326;POINT(-145 64)'), ('outside', NULL, 2, 'SRID=4326;POINT(10 50)')
            """)
        let (url, result) = f.create("odd.pkg", from: "\(f.address) schemas='Field Work'", ["--where", #"Odd "quoted" Sites:"Site Name" LIKE 'IN%'"#])
        try #require(result.exitCode == 0, "\(result.stderr)")
        #expect(try PackageData.tables(url) == [#"Odd "quoted" Sites"#])
        let rows = try PackageData.rows(#"Odd "quoted" Sites"#, by: "Site Name", in: url)
        #expect(rows.keys.sorted() == ["in 'one'", "in two"])
        #expect(rows["in 'one'"]?["Visited At"] == .value(.text("2026-03-04T14:06:07.654321Z")))
        #expect(rows["in 'one'"]?["Depth (m)"] == .value(.text("1.50")))
        #expect(rows["in two"]?["Visited At"] == .value(.null))
        #expect(try GDALValidator.findings(url.appendingPathComponent("data.gpkg").path) == "")
        let manifest = try String(contentsOf: url.appendingPathComponent("manifest.json"), encoding: .utf8)
        #expect(manifest.contains(#"schemas='Field Work'"#), "\(manifest.prefix(600))")
    }

    @Test("a password given in the address lands nowhere in the package")
    func passwordNeverStored() throws {
        let f = try CreateFixture()
        let password = try #require(PostgreSQLTestServer.password)
        try f.psql("GRANT USAGE ON SCHEMA pkgbuild TO \(PostgreSQLTestServer.passwordRole); "
                   + "GRANT SELECT ON ALL TABLES IN SCHEMA public, pkgbuild TO \(PostgreSQLTestServer.passwordRole)")
        let conninfo = "\(f.database.conninfo) user=\(PostgreSQLTestServer.passwordRole) password='\(password)'"
        let (url, result) = f.create("secret.pkg", from: "PG:\(conninfo)")
        try #require(result.exitCode == 0, "\(result.stderr)")
        let files = try #require(FileManager.default.enumerator(at: url, includingPropertiesForKeys: nil)?.allObjects as? [URL])
        #expect(files.contains { $0.lastPathComponent == "manifest.json" } && files.contains { $0.lastPathComponent == "data.gpkg" })
        for file in files where !file.hasDirectoryPath {
            let bytes = try Data(contentsOf: file)
            #expect(bytes.range(of: Data(password.utf8)) == nil, "\(file.lastPathComponent) holds the password")
        }
        let manifest = try String(contentsOf: url.appendingPathComponent("manifest.json"), encoding: .utf8)
        #expect(manifest.contains("user=\(PostgreSQLTestServer.passwordRole)") && !manifest.contains("password"), "\(manifest.prefix(600))")
        #expect(!result.stdout.contains(password) && !result.stderr.contains(password))
    }
}
