import Foundation
import SourceDrivers
import Testing
import TestSupport
@testable import PostgreSQLSource

/// CHECK constraints and defaults as PostgreSQL prints them, translated into SQLite's SQL.
@Suite("PostgreSQL catalog expressions")
struct CatalogExpressionTests {
    @Test(arguments: [
        ("CHECK ((status = ANY (ARRAY['open'::text, 'closed'::text])))", #"(("status" IN ('open', 'closed')))"#),
        ("CHECK (((kind)::text = ANY ((ARRAY['a'::character varying, 'b''s'::character varying])::text[])))",
         #"((("kind") IN ('a', 'b''s')))"#),
        ("CHECK (((height >= (0)::double precision) AND (height <= (100)::double precision)))",
         #"((("height" >= (0)) AND ("height" <= (100))))"#),
        ("CHECK ((\"Name\" IS NOT NULL))", #"(("Name" IS NOT NULL))"#),
        ("CHECK ((char_length(name) > 0))", #"((length ("name") > 0))"#),
        ("CHECK ((grade <> ALL (ARRAY[1, 2])))", #"(("grade" NOT IN (1, 2)))"#),
    ])
    func checksTranslate(_ definition: String, _ expected: String) {
        #expect(CatalogCheck.sqlite(definition) == expected)
    }

    @Test(arguments: [
        "CHECK ((name ~~ 'a%'::text))",              // LIKE: case rules differ in SQLite
        "CHECK ((tags @> ARRAY['x'::text]))",         // array operators
        "CHECK ((st_isvalid(geom)))",                 // a function SQLite lacks
        "CHECK ((height > 0)) NOT VALID",             // rows may break it
        "CHECK ((name <> E'a\\\\b'::text))",          // escapes not read
    ])
    func untranslatableChecksAreLeftOut(_ definition: String) {
        #expect(CatalogCheck.sqlite(definition) == nil)
    }

    @Test func defaults() {
        #expect(CatalogDefault.sqlite("'abc'::text", type: .text(length: nil)) == "'abc'")
        #expect(CatalogDefault.sqlite("'it''s'::character varying", type: .text(length: 10)) == "'it''s'")
        #expect(CatalogDefault.sqlite("42", type: .integer) == "42")
        #expect(CatalogDefault.sqlite("'-1'::integer", type: .integer) == "'-1'")
        #expect(CatalogDefault.sqlite("true", type: .boolean) == "1")
        #expect(CatalogDefault.sqlite("now()", type: .timestamptz) == "(strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))")
        #expect(CatalogDefault.sqlite("CURRENT_DATE", type: .date) == "(date('now'))")
        #expect(CatalogDefault.sqlite("'2020-01-01'::date", type: .date) == "'2020-01-01'")
        #expect(CatalogDefault.sqlite("nextval('parks_fid_seq'::regclass)", type: .integer) == nil)
        #expect(CatalogDefault.sqlite("gen_random_uuid()", type: .globalID) == nil)
        #expect(CatalogDefault.sqlite("'2020-01-01 00:00:00+00'::timestamp with time zone", type: .timestamptz) == nil)
        #expect(CatalogDefault.sqlite("other_column", type: .integer) == nil)
    }
}

/// The catalog of a real database: which tables, their keys and constraints.
@Suite("PostgreSQL catalog", .enabled(if: PostgreSQLTestServer.isAvailable, Comment(rawValue: PostgreSQLTestServer.unavailableNote)))
struct CatalogTests {
    @Test("tables, not partitions, not PostGIS's spatial_ref_sys, not pkgbuild's schema")
    func whichTables() throws {
        let db = try PostgreSQLTestDatabase()
        try PostgreSQLTestServer.psql("""
            CREATE TABLE plain (id int PRIMARY KEY);
            CREATE TABLE parted (id int, year int, PRIMARY KEY (id, year)) PARTITION BY RANGE (year);
            CREATE TABLE parted_2026 PARTITION OF parted FOR VALUES FROM (2026) TO (2027);
            CREATE VIEW a_view AS SELECT 1 AS x;
            CREATE SCHEMA pkgbuild; CREATE TABLE pkgbuild.tables (x int);
            """, conninfo: db.conninfo)
        let source = try SourceDatabase.connect(db.conninfo)
        #expect(try Catalog.tables(in: "public", on: source.connection).map(\.name) == ["plain", "parted"])
        #expect(try Catalog.tables(in: "pkgbuild", on: source.connection).isEmpty)
        #expect(try Catalog.table("parted_2026", in: "public", on: source.connection) == nil)
        #expect(try Catalog.table("parted", in: "public", on: source.connection)?.primaryKey == ["id", "year"])
    }

    @Test("keys, UNIQUE, CHECK, foreign keys and defaults as the package declares them")
    func constraints() throws {
        let db = try PostgreSQLTestDatabase()
        try PostgreSQLTestServer.psql("""
            CREATE TABLE sites (id bigserial PRIMARY KEY, code text UNIQUE NOT NULL, a int, b int, UNIQUE (a, b));
            CREATE DOMAIN grade AS smallint NOT NULL CHECK (VALUE BETWEEN 1 AND 5);
            CREATE TABLE "Visits" (fid integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
              site_id bigint REFERENCES sites ON DELETE CASCADE,
              status varchar(10) DEFAULT 'open' CHECK (status IN ('open', 'closed')),
              height real CHECK (height BETWEEN 0 AND 100), mark grade, note text CHECK (note ~~ 'x%'),
              seen timestamptz DEFAULT now(), GlobalID uuid DEFAULT gen_random_uuid(),
              geom geometry(MultiPolygonM, 3857));
            """, conninfo: db.conninfo)
        let source = try SourceDatabase.connect(db.conninfo)
        let sites = try #require(try Catalog.table("sites", in: "public", on: source.connection))
        #expect(sites.column("code")?.feature.isUnique == true && sites.column("code")?.feature.isNotNull == true)
        #expect(sites.uniqueColumnSets == [["a", "b"]])
        #expect(sites.column("id")?.feature.defaultSQL == nil)
        let visits = try #require(try Catalog.table("Visits", in: "public", on: source.connection))
        #expect(visits.primaryKey == ["fid"])
        #expect(visits.foreignKeys == [ForeignKey(columns: ["site_id"], table: "sites", referencedColumns: ["id"], onDelete: "CASCADE")])
        #expect(visits.checks == [#"((("height" >= (0)) AND ("height" <= (100))))"#, #"((("status") IN ('open', 'closed')))"#,
                                  #"((("mark" >= 1) AND ("mark" <= 5)))"#])
        #expect(visits.column("status")?.feature.defaultSQL == "'open'")
        #expect(visits.column("seen")?.feature.defaultSQL == "(strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))")
        #expect(visits.column("mark")?.feature.declaredType == "SMALLINT" && visits.column("mark")?.feature.isNotNull == true)
        #expect(visits.column("mark")?.castType == "grade")
        #expect(visits.globalIDColumn == "globalid")
        #expect(visits.geometry == .init(name: "geom", geometryTypeName: "MULTIPOLYGON", srsID: 3857, z: 0, m: 1))
        #expect(visits.column("geom")?.feature.declaredType == "MULTIPOLYGON")
    }
}
