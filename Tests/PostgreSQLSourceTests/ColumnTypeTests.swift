import Foundation
import Geometry
import PostgreSQL
import SourceDrivers
import Testing
import TestSupport
@testable import PostgreSQLSource

extension Trait where Self == ConditionTrait {
    /// Runs the test only beside the cluster of `make test`; skipped (with the reason) otherwise.
    fileprivate static var needsCluster: Self {
        .enabled(if: PostgreSQLTestServer.isAvailable, Comment(rawValue: PostgreSQLTestServer.unavailableNote))
    }
}

/// Every mapped type round-trips: a row inserted with psql is read through its SourceColumn,
/// written into a second row through parameter(), and psql's text of both rows is the same.
@Suite("PostgreSQL column types", .needsCluster)
struct ColumnTypeTests {
    static let table = """
        CREATE TABLE kinds (id serial PRIMARY KEY, c_int2 smallint, c_int4 integer, c_int8 bigint, c_float4 real,
        c_float8 double precision, c_numeric numeric, c_bool boolean, c_text text, c_varchar varchar(80), c_char char(5),
        c_date date, c_tstz timestamptz, c_ts timestamp, c_uuid uuid, globalid uuid, c_jsonb jsonb, c_json json,
        c_text_array text[], c_int_array integer[], c_bytea bytea, geom geometry(PointZ, 4326), c_interval interval, c_inet inet, c_char_array char(3)[], c_bit bit(3))
        """
    static let row = """
        INSERT INTO kinds (c_int2, c_int4, c_int8, c_float4, c_float8, c_numeric, c_bool, c_text, c_varchar, c_char, c_date,
        c_tstz, c_ts, c_uuid, globalid, c_jsonb, c_json, c_text_array, c_int_array, c_bytea, geom, c_interval, c_inet, c_char_array, c_bit) VALUES
        (-32768, -2147483648, 9223372036854775807, 0.1, 0.1, 12345678901234567890.123456789, true, 'Zürich "q" ''x''',
        'eighty', 'ab', '2026-01-02', '2026-01-02 04:04:05.123456+01', '2026-01-02 03:04:05.5',
        'A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11', 'b0eebc99-9c0b-4ef8-bb6d-6bb9bd380a12', '{"b": 1, "a": [1, 2]}',
        '{"b": 1,  "a": 2}', '{"a b",c,NULL}', '{1,2,3}', '\\x00ff10', 'SRID=4326;POINT Z (1 2 3)', '1 day 02:03:04',
        '192.168.0.1/24', '{abc,de}', B'101')
        """

    private func setUp() throws -> (PostgreSQLTestDatabase, SourceDatabase, CatalogTable) {
        let db = try PostgreSQLTestDatabase()
        try PostgreSQLTestServer.psql(Self.table + "; " + Self.row, conninfo: db.conninfo)
        let source = try SourceDatabase.connect(db.conninfo)
        let table = try #require(try Catalog.table("kinds", in: "public", on: source.connection))
        return (db, source, table)
    }

    /// The first row's values, read through each column's select expression.
    private func values(_ table: CatalogTable, on source: SourceDatabase, id: Int = 1) throws -> [String: SourceValue] {
        let columns = table.columns.filter { $0.name != "id" }
        let select = columns.map { $0.selectExpression(PostgreSQLQuoting.identifier($0.name)) }.joined(separator: ", ")
        let row = try #require(try source.connection.queryFirst("SELECT \(select) FROM kinds WHERE id = $1", [.int(id)]))
        var result: [String: SourceValue] = [:]
        for (index, column) in columns.enumerated() { result[column.name] = try column.value(in: row, at: index) }
        return result
    }

    @Test("each type is declared as the README says")
    func declaredTypes() throws {
        let (_, _, table) = try setUp()
        let declared = Dictionary(uniqueKeysWithValues: table.columns.map { ($0.name, $0.feature.declaredType) })
        #expect(declared == ["id": "INTEGER", "c_int2": "SMALLINT", "c_int4": "MEDIUMINT", "c_int8": "INTEGER", "c_float4": "FLOAT",
                             "c_float8": "REAL", "c_numeric": "TEXT", "c_bool": "BOOLEAN", "c_text": "TEXT", "c_varchar": "TEXT(80)",
                             "c_char": "TEXT(5)", "c_date": "DATE", "c_tstz": "TEXT", "c_ts": "TEXT", "c_uuid": "TEXT",
                             "globalid": "TEXT", "c_jsonb": "TEXT", "c_json": "TEXT", "c_text_array": "TEXT",
                             "c_int_array": "TEXT", "c_bytea": "BLOB", "geom": "POINT", "c_interval": "TEXT", "c_inet": "TEXT",
                             "c_char_array": "TEXT", "c_bit": "TEXT"])
        #expect(table.column("c_varchar")?.typeName == "character varying(80)")
        #expect(table.geometry == .init(name: "geom", geometryTypeName: "POINT", srsID: 4326, z: 1, m: 0))
        #expect(table.globalIDColumn == "globalid")
        #expect(table.primaryKey == ["id"])
        #expect(table.integerPrimaryKey == "id")
    }

    @Test("values cross the seam in the documented forms")
    func readForms() throws {
        let (db, source, table) = try setUp()
        let v = try values(table, on: source)
        #expect(v["c_int2"] == .integer(-32768))
        #expect(v["c_int4"] == .integer(-2147483648))
        #expect(v["c_int8"] == .integer(.max))
        #expect(v["c_float4"] == .real(Double(Float(0.1))))
        #expect(v["c_float8"] == .real(0.1))
        #expect(v["c_numeric"] == .text("12345678901234567890.123456789"))
        #expect(v["c_bool"] == .integer(1))
        #expect(v["c_text"] == .text("Zürich \"q\" 'x'"))
        #expect(v["c_char"] == .text("ab   "))
        #expect(v["c_date"] == .text("2026-01-02"))
        #expect(v["c_tstz"] == .text("2026-01-02T03:04:05.123456Z"))
        #expect(v["c_ts"] == .text("2026-01-02T03:04:05.500000"))
        #expect(v["c_uuid"] == .text("a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11"))
        #expect(v["globalid"] == .text("{B0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A12}"))
        #expect(v["c_jsonb"] == .text(#"{"a": [1, 2], "b": 1}"#))
        #expect(v["c_json"] == .text(#"{"b": 1,  "a": 2}"#))
        #expect(v["c_text_array"] == .text(#"{"a b",c,NULL}"#))
        #expect(v["c_bytea"] == .blob([0x00, 0xFF, 0x10]))
        #expect(v["c_interval"] == .text("P1DT2H3M4S"))
        #expect(v["c_char_array"] == .text("{abc,\"de \"}") && v["c_bit"] == .text("101"))
        // The WKB is ISO (type 1001 for a point with Z), as psql's own ST_AsBinary gives it.
        guard case .geometry(let geometry) = v["geom"] else { Issue.record("geom is \(String(describing: v["geom"]))"); return }
        let hex = try PostgreSQLTestServer.psql("SELECT encode(ST_AsBinary(geom), 'hex') FROM kinds", conninfo: db.conninfo)
        #expect(geometry.wkb.map { String(format: "%02x", $0) }.joined() == hex)
        #expect(geometry.srsID == 4326 && !geometry.isEmpty)
        #expect(Array(geometry.wkb[1...4]) == [0xE9, 0x03, 0, 0])
    }

    @Test("written back through parameter(), every column reads in psql as the original")
    func roundTrip() throws {
        let (db, source, table) = try setUp()
        let v = try values(table, on: source)
        let columns = table.columns.filter { $0.name != "id" }
        var placeholders: [String] = []
        var parameters: [Parameter] = []
        for (index, column) in columns.enumerated() {
            let (sql, parameter) = try column.parameter(try #require(v[column.name]), placeholder: index + 1)
            placeholders.append(sql)
            parameters.append(parameter)
        }
        let names = columns.map { PostgreSQLQuoting.identifier($0.name) }.joined(separator: ", ")
        try source.connection.execute("INSERT INTO kinds (\(names)) VALUES (\(placeholders.joined(separator: ", ")))", parameters)
        for column in columns {
            let texts = try PostgreSQLTestServer.psql("SELECT \(column.name)::text FROM kinds ORDER BY id", conninfo: db.conninfo)
            let lines = texts.split(separator: "\n", omittingEmptySubsequences: false)
            #expect(lines.count == 2 && lines[0] == lines[1], "\(column.name): \(texts)")
        }
        #expect(try values(table, on: source, id: 2) == v)
    }

    @Test("NULL round-trips in every column")
    func nulls() throws {
        let (db, source, table) = try setUp()
        try PostgreSQLTestServer.psql("INSERT INTO kinds DEFAULT VALUES", conninfo: db.conninfo)
        let v = try values(table, on: source, id: 2)
        #expect(v.values.allSatisfy { $0 == .null })
        for column in table.columns where column.name != "id" {
            let (sql, parameter) = try column.parameter(.null, placeholder: 1)
            try source.connection.execute("UPDATE kinds SET \(PostgreSQLQuoting.identifier(column.name)) = \(sql) WHERE id = 1", [parameter])
        }
        #expect(try values(table, on: source, id: 1).values.allSatisfy { $0 == .null })
    }

    @Test("text the UTF8 database cannot store is the server's error, nothing written")
    func latin1Refused() throws {
        let (db, source, table) = try setUp()
        let column = try #require(table.column("c_text"))
        let (sql, parameter) = try column.parameter(.textBytes([0x5A, 0xFC, 0x72]), placeholder: 1)
        #expect(parameter == .textBytes([0x5A, 0xFC, 0x72]))
        do {
            try source.connection.execute("UPDATE kinds SET c_text = \(sql)", [parameter])
            Issue.record("the server took Latin-1 bytes")
        } catch let error as PostgreSQLError {
            #expect(error.sqlState == "22021")
        }
        #expect(try PostgreSQLTestServer.psql("SELECT c_text FROM kinds", conninfo: db.conninfo) == "Zürich \"q\" 'x'")
    }

    @Test("a value of the wrong kind is refused before it is sent")
    func wrongKindsRefused() throws {
        let (_, _, table) = try setUp()
        #expect(throws: SourceRefusal.self) { try table.column("c_int4")!.parameter(.blob([1]), placeholder: 1) }
        #expect(throws: SourceRefusal.self) { try table.column("c_int8")!.parameter(.real(1.5), placeholder: 1) }
        #expect(throws: SourceRefusal.self) { try table.column("geom")!.parameter(.text("POINT(1 2)"), placeholder: 1) }
        #expect(throws: SourceRefusal.self) { try table.column("c_text")!.parameter(.blob([1]), placeholder: 1) }
        #expect(try table.column("geom")!.parameter(.null, placeholder: 3).sql == "ST_GeomFromWKB($3, 4326)")
        #expect(try table.column("c_tstz")!.parameter(.null, placeholder: 2).sql == "$2::timestamp with time zone")
    }

    @Test("empty geometries are empty, infinite timestamps stay infinite, both ways")
    func emptyAndInfinite() throws {
        let (db, source, table) = try setUp()
        try PostgreSQLTestServer.psql("""
            INSERT INTO kinds (geom, c_tstz, c_ts) VALUES ('SRID=4326;POINT Z EMPTY', 'infinity', '-infinity');
            CREATE TABLE areas (id int PRIMARY KEY, geom geometry(MultiPolygon, 3857));
            INSERT INTO areas VALUES (1, 'SRID=3857;MULTIPOLYGON EMPTY'), (2, 'SRID=3857;MULTIPOLYGON(((0 0, 1 0, 1 1, 0 0)))')
            """, conninfo: db.conninfo)
        let v = try values(table, on: source, id: 2)
        guard case .geometry(let point) = v["geom"] else { Issue.record("\(String(describing: v["geom"]))"); return }
        #expect(point.isEmpty)
        #expect(v["c_tstz"] == .text("infinity") && v["c_ts"] == .text("-infinity"))
        for column in ["geom", "c_tstz", "c_ts"] {
            let (sql, parameter) = try table.column(column)!.parameter(v[column]!, placeholder: 1)
            try source.connection.execute("UPDATE kinds SET \(column) = \(sql) WHERE id = 1", [parameter])
        }
        #expect(try PostgreSQLTestServer.psql("SELECT ST_IsEmpty(geom), c_tstz, c_ts FROM kinds WHERE id = 1", conninfo: db.conninfo)
                == "t|infinity|-infinity")
        let areas = try #require(try Catalog.table("areas", in: "public", on: source.connection)?.column("geom"))
        let rows = try source.connection.query("SELECT \(areas.selectExpression("geom")) FROM areas ORDER BY id")
        let empties = try rows.map { row -> Bool? in
            if case .geometry(let g) = try areas.value(in: row, at: 0) { return g.isEmpty && g.srsID == 3857 } else { return nil }
        }
        #expect(empties == [true, false])
    }

    @Test("a timestamptz written in the package's millisecond form keeps its instant")
    func millisecondTimestamps() throws {
        let (db, source, table) = try setUp()
        let (sql, parameter) = try table.column("c_tstz")!.parameter(.text("2026-05-06T07:08:09.120Z"), placeholder: 1)
        try source.connection.execute("UPDATE kinds SET c_tstz = \(sql)", [parameter])
        #expect(try PostgreSQLTestServer.psql("SELECT c_tstz AT TIME ZONE 'UTC' FROM kinds", conninfo: db.conninfo)
                == "2026-05-06 07:08:09.12")
    }
}
