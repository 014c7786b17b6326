import Foundation
import Geodatabase
import Geometry
import PostgreSQL
import SourceDrivers
import SQLite
import Testing
import TestSupport
@testable import PostgreSQLSource

/// The `--where` grammar rendered in PostgreSQL's SQL: text only ever as parameters, names
/// quoted, and each filter selecting at PostgreSQL the rows it selects at SQLite.
@Suite("--where in PostgreSQL's SQL")
struct CreateFilterRenderingTests {
    static let hostile = ["'; DROP TABLE parks; --", "\\'; SELECT 1; --", "$1", "' OR '1'='1", "x' || chr(65) || '", "E'\\x41'", "\"name\""]

    private func render(_ text: String, columns: [String: ColumnType] = ["name": .text(length: nil), "rank": .integer])
        throws -> (sql: String, parameters: [Parameter]) {
        let expression = try WhereFilter(layer: "t", expression: text).parsed(columns: Array(columns.keys)).parsed
        var parameters: [Parameter] = [.text("already there")]
        let sql = expression.postgreSQL(type: { columns[$0] }, parameters: &parameters)
        return (sql, parameters)
    }

    @Test(arguments: hostile)
    func textIsAlwaysAParameter(_ text: String) throws {
        let literal = "'" + text.replacingOccurrences(of: "'", with: "''") + "'"
        let (sql, parameters) = try render("name = \(literal) OR name IN (\(literal), 'b') OR name LIKE \(literal)")
        #expect(parameters.dropFirst().contains(.text(text)))
        #expect(sql == #"(("name" = $2) OR ("name" IN ($3, $4)) OR (("name"::text) ILIKE ($5::text::text) ESCAPE ''))"#, "\(sql)")
        #expect(!sql.contains("DROP") && !sql.contains("SELECT") && !sql.contains("'1'"), "\(sql)")
    }

    @Test func namesAreQuotedAndNumbersStayNumbers() throws {
        let (sql, parameters) = try render(#""we""ird" = 1 AND rank BETWEEN -9223372036854775808 AND 2.5"#,
                                           columns: ["we\"ird": .bigint, "rank": .integer])
        #expect(sql == #"(("we""ird" = (1)) AND ("rank" BETWEEN (-9223372036854775807 - 1) AND (2.5)))"#, "\(sql)")
        #expect(parameters == [.text("already there")])
    }

    @Test func aNumberFacingTextIsReadAsText() throws {
        let (sql, parameters) = try render("name = 5 OR 'a' = 'a'")
        #expect(sql == #"(("name" = $2) OR ($3::text = $4::text))"#, "\(sql)")
        #expect(Array(parameters.dropFirst()) == [.text("5"), .text("a"), .text("a")])
    }
}

/// Filters run at a real database select what SQLite selects from the same rows.
@Suite("--where at PostgreSQL", .enabled(if: PostgreSQLTestServer.isAvailable, Comment(rawValue: PostgreSQLTestServer.unavailableNote)))
struct CreateFilterTests {
    static let filters = [
        "rank = 1.5", "rank >= 2", "name = 5", "name LIKE 'ab%'", "name NOT LIKE '%_c'", "rank LIKE '1%'",
        "code IN ('x', 'Y') OR rank IS NULL", "NOT (rank BETWEEN 1 AND 2)", "seen > '2026-01-01T12:00:00Z'", "flag = 1",
        "name = 'O''Brien'", "rank <> 2 AND name IS NOT NULL", "flag LIKE '1'", "seen LIKE '2026-01-01%'", "seen NOT LIKE '%:01.%'",
    ]

    /// The same rows in PostgreSQL and in SQLite (the GeoPackage side's dialect), by id.
    static let rows = [
        "1, 'abc', 1, 'x', '2026-01-01T10:00:00.000000Z', true", "2, 'ABD', 2, 'y', '2026-01-02T00:00:00.000000Z', false",
        "3, '5', NULL, 'Y', NULL, NULL", "4, 'O''Brien', 10, 'z', '2026-01-01T12:00:01.000000Z', true", "5, NULL, 3, 'x', NULL, false",
    ]

    @Test(arguments: filters)
    func selectsWhatSQLiteSelects(_ filter: String) throws {
        let db = try PostgreSQLTestDatabase()
        try PostgreSQLTestServer.psql("""
            CREATE TABLE t (id int PRIMARY KEY, name text, rank integer, code varchar(4), seen timestamptz, flag boolean);
            INSERT INTO t VALUES \(Self.rows.map { "(\($0))" }.joined(separator: ", "))
            """, conninfo: db.conninfo)
        let source = try #require(try PostgreSQLSourceDriver().openFeatureSource(db.conninfo) as? PostgreSQLFeatureSource)
        let columns = ["id", "name", "rank", "code", "seen", "flag"]
        let expression = try WhereFilter(layer: "t", expression: filter).parsed(columns: columns).parsed
        var ids: [Int64] = []
        try source.withReadSnapshot {
            try source.forEachRow(RowQuery(layer: "t", columns: ["id"], selection: .all, filter: expression)) { row in
                if case .integer(let id) = row.values[0] { ids.append(id) }
            }
        }
        let directory = try TemporaryDirectory("pkgbuild-filter")
        let sqlite = try SQLite.Connection(path: directory.path("t.sqlite"))
        try sqlite.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT, rank MEDIUMINT, code TEXT(4), seen TEXT, flag BOOLEAN)")
        try sqlite.execute("INSERT INTO t VALUES " + Self.rows.map { "(\($0.replacingOccurrences(of: "true", with: "1").replacingOccurrences(of: "false", with: "0")))" }.joined(separator: ", "))
        let expected = try sqlite.query("SELECT id FROM t WHERE \(expression.sqlite) ORDER BY id").compactMap { $0[0].int64Value }
        #expect(ids.sorted() == expected, "\(filter)")
    }
}
