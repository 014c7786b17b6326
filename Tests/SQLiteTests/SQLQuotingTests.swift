import Testing
@testable import SQLite

/// `SQL.literal` and `SQL.identifier` double every quote SQLite sees, including one that a
/// combining mark joins into a single Swift Character with what follows it.
@Suite struct SQLQuotingTests {
    static let texts = ["plain", "O'Brien", "a'\u{301}b", "'\u{301}", "x'\u{301} OR 1 = 1 OR y = '", "\"\u{301}", "a\"\u{20DD}\"",
                        "'", "''", "e\u{301}", ""]

    @Test(arguments: texts)
    func aLiteralReadsBackAsTheSameText(text: String) throws {
        let db = try Connection(path: ":memory:")
        #expect(try db.scalar("SELECT \(SQL.literal(text))") == .text(text))
    }

    @Test(arguments: texts.filter { !$0.isEmpty })
    func anIdentifierNamesTheSameColumn(name: String) throws {
        let db = try Connection(path: ":memory:")
        try db.execute("CREATE TABLE t (\(SQL.identifier(name)) TEXT)")
        #expect(try db.query("SELECT name FROM pragma_table_info('t')") == [[.text(name)]])
        try db.execute("INSERT INTO t (\(SQL.identifier(name))) VALUES ('v')")
        #expect(try db.scalar("SELECT \(SQL.identifier(name)) FROM t") == .text("v"))
    }
}
