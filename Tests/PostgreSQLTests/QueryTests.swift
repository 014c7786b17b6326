import Foundation
import Testing
import TestSupport
@testable import PostgreSQL

@Suite("Queries: parameters, NULL, bytea, text", .needsPostgreSQL)
struct QueryTests {
    @Test("a connection reaches PostgreSQL 15 with PostGIS 3")
    func connects() throws {
        let db = try connectToTestDatabase()
        #expect(db.serverVersion / 10000 == 15)
        let postgis = try #require(try db.queryFirst("SELECT postgis_lib_version()")?.string(0))
        #expect(postgis.hasPrefix("3."))
        #expect(db.info.dbname == "pkgbuild_test")
    }

    @Test("parameters of every kind come back as sent")
    func parameters() throws {
        let db = try connectToTestDatabase()
        let row = try #require(try db.queryFirst(
            "SELECT $1::int8, $2::float8, $3::bool, $4::text, $5::text IS NULL, $6::bytea, $7::float8",
            [42, 1.5, true, "Denali", nil, .bytea([0, 1, 0xFF, 0x5C]), .double(-.infinity)]))
        #expect(try row.int(0) == 42)
        #expect(try row.double(1) == 1.5)
        #expect(try row.bool(2) == true)
        #expect(row.string(3) == "Denali")
        #expect(try row.bool(4) == true)
        #expect(try row.bytes(5) == [0, 1, 0xFF, 0x5C])
        #expect(try row.double(6) == -.infinity)
        #expect(row.name(0) == "int8")
    }

    @Test("NULL results are nil for every accessor")
    func nulls() throws {
        let db = try connectToTestDatabase()
        let row = try #require(try db.queryFirst("SELECT NULL::int, NULL::text, NULL::bytea, NULL::bool"))
        #expect(row.isNull(0) && row.isNull(1) && row.isNull(2) && row.isNull(3))
        #expect(try row.int(0) == nil)
        #expect(row.string(1) == nil)
        #expect(try row.bytes(2) == nil)
        #expect(try row.bool(3) == nil)
    }

    @Test("Unicode text round-trips through a table, and length counts characters")
    func unicode() throws {
        let db = try connectToTestDatabase()
        let table = PostgreSQLTestServer.uniqueName("unicode")
        try db.execute("CREATE TABLE \(table)(id int PRIMARY KEY, name text)")
        defer { try? db.execute("DROP TABLE \(table)") }
        let names = ["Ōlaʻa Forest", "Zürich 🏔️", "Łódź", "東京", "e\u{301}"]
        for (id, name) in names.enumerated() {
            #expect(try db.execute("INSERT INTO \(table) VALUES ($1, $2)", [.int(id), .text(name)]) == 1)
        }
        let rows = try db.query("SELECT name, length(name) FROM \(table) ORDER BY id")
        #expect(rows.map { $0.string(0) } == names)
        #expect(try rows.map { try $0.int(1) } == names.map { $0.unicodeScalars.count })
    }

    @Test("a UTF8 database refuses Latin-1 bytes sent as text: an error kind, nothing stored")
    func invalidUTF8() throws {
        let db = try connectToTestDatabase()
        let table = PostgreSQLTestServer.uniqueName("latin1")
        try db.execute("CREATE TABLE \(table)(name text)")
        defer { try? db.execute("DROP TABLE \(table)") }
        let latin1: [UInt8] = Array("Z".utf8) + [0xFC] + Array("rich".utf8)  // "Zürich" in Latin-1
        let error = postgreSQLError { try db.execute("INSERT INTO \(table) VALUES ($1)", [.textBytes(latin1)]) }
        #expect(error?.sqlState == SQLState.characterNotInRepertoire)
        #expect(error?.isInvalidText == true)
        #expect(try db.queryFirst("SELECT count(*) FROM \(table)")?.int(0) == 0)
        let nul = postgreSQLError { try db.execute("INSERT INTO \(table) VALUES ($1)", [.text("a\u{0}b")]) }
        #expect(nul?.kind == .invalidParameter)
        #expect(nul?.isInvalidText == true)
        #expect(try db.queryFirst("SELECT 1")?.int(0) == 1, "the connection still works")
    }

    @Test("several statements run in one execute, a column is found by its name")
    func multipleStatements() throws {
        let db = try connectToTestDatabase()
        let table = PostgreSQLTestServer.uniqueName("multi")
        try db.execute("CREATE TABLE \(table)(\"Name\" text, n int); INSERT INTO \(table) VALUES ('a', 1), ('b', 2)")
        defer { try? db.execute("DROP TABLE \(table)") }
        let rows = try db.query("SELECT * FROM \(table) WHERE n > $1", [1])
        #expect(rows.count == 1)
        #expect(rows.first?.index(of: "Name") == 0)
        #expect(rows.first?.index(of: "name") == nil)
        #expect(try db.execute("UPDATE \(table) SET n = n + 1", []) == 2)
    }

    @Test("a value read as the wrong type is an error naming the column")
    func wrongType() throws {
        let db = try connectToTestDatabase()
        let row = try #require(try db.queryFirst("SELECT 'abc'::text AS label"))
        let error = postgreSQLError { _ = try row.int(0) }
        #expect(error?.kind == .unexpectedValue)
        #expect(error?.message.contains("label") == true)
        let hex = try #require(try db.queryFirst("SELECT 'abc'::text, 'zz'::text, '00Ff'::text"))
        #expect(postgreSQLError { _ = try hex.bytes(0) }?.kind == .unexpectedValue, "odd length")
        #expect(postgreSQLError { _ = try hex.bytes(1) }?.kind == .unexpectedValue, "not hex")
        #expect(try hex.bytes(2) == [0x00, 0xFF])
    }
}

@Suite("Quoting names", .needsPostgreSQL)
struct QuotingTests {
    @Test("a schema and table named with quotes, spaces, capitals and a semicolon are used as named")
    func hostileNames() throws {
        let db = try connectToTestDatabase()
        let schema = PostgreSQLTestServer.uniqueName("Field \"Data\"")
        let table = "parks\"; DROP TABLE x; --"
        let qualified = PostgreSQLQuoting.qualified(schema, table)
        try db.execute("CREATE SCHEMA \(PostgreSQLQuoting.identifier(schema)); CREATE TABLE \(qualified)(\"Name\" text)")
        defer { try? db.execute("DROP SCHEMA \(PostgreSQLQuoting.identifier(schema)) CASCADE") }
        try db.execute("INSERT INTO \(qualified) VALUES ($1)", ["Denali"])
        #expect(try db.queryFirst("SELECT \(PostgreSQLQuoting.identifier("Name")) FROM \(qualified)")?.string(0) == "Denali")
        let listed = try db.query("SELECT table_name FROM information_schema.tables WHERE table_schema = $1", [.text(schema)])
        #expect(listed.map { $0.string(0) } == [table])
    }
}

@Suite("Binary results", .needsPostgreSQL)
struct BinaryResultTests {
    @Test("integers, doubles, booleans, text and bytea read the same in binary as in text format")
    func sameValues() throws {
        let db = try connectToTestDatabase()
        let sql = """
            SELECT -2::int2, -70000::int4, -5000000000::int8, 1.25::float4, -0.1::float8,
                   'Infinity'::float8, true, 'Zürich'::text, '\\x00ff5c'::bytea, NULL::int8
            """
        let text = try #require(try db.queryFirst(sql))
        let binary = try #require(try db.queryFirst(sql, results: .binary))
        #expect(binary.isBinary(0) && !text.isBinary(0))
        for column in 0..<3 { #expect(try binary.int(column) == text.int(column)) }
        #expect(try binary.int(2) == -5_000_000_000)
        for column in 3..<6 { #expect(try binary.double(column) == text.double(column)) }
        #expect(try binary.bool(6) == true)
        #expect(binary.string(7) == "Zürich")
        #expect(try binary.bytes(8) == [0, 0xFF, 0x5C])
        #expect(try text.bytes(8) == [0, 0xFF, 0x5C])
        #expect(try binary.int(9) == nil)
        let wrong = postgreSQLError { _ = try binary.int(7) }
        #expect(wrong?.kind == .unexpectedValue)
    }

    @Test("a geometry in binary is its EWKB, streamed")
    func geometry() throws {
        let db = try connectToTestDatabase()
        var seen = 0
        try db.forEachRow("SELECT ST_SetSRID(ST_MakePoint(i, -i), 4326), ST_AsEWKB(ST_SetSRID(ST_MakePoint(i, -i), 4326)) FROM generate_series(1, 10) AS i",
                          results: .binary) { row throws in
            #expect(try row.bytes(0) == row.bytes(1))
            seen += 1
        }
        #expect(seen == 10)
    }
}
