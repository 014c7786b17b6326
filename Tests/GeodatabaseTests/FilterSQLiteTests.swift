import Testing
import SQLite
@testable import Geodatabase

/// The SQLite rendering of a parsed filter selects the rows SQLite itself selects with the
/// filter's text, and quotes what it must.
@Suite struct FilterSQLiteTests {
    func table() throws -> Connection {
        let db = try Connection(path: ":memory:")
        try db.execute("""
            CREATE TABLE t (fid INTEGER PRIMARY KEY, name TEXT, "unit type" TEXT, score REAL, n INTEGER);
            INSERT INTO t VALUES (1, 'Denali', 'National Park', 1.5, -9223372036854775808),
                                 (2, 'O''Brien', 'Preserve', -2.5, 0),
                                 (3, 'denali east', NULL, 1e-7, 10),
                                 (4, NULL, 'National Park', NULL, 9223372036854775807),
                                 (5, '50%_off', 'Monument', 100, -3);
            """)
        return db
    }

    func fids(_ db: Connection, _ condition: String) throws -> [Int64] {
        try db.query("SELECT fid FROM t WHERE \(condition) ORDER BY fid").map { $0[0].int64Value ?? -1 }
    }

    @Test(arguments: [
        "name = 'Denali'", "name LIKE 'denali%'", "name NOT LIKE '%a%'", "name LIKE '50\\%%'", "name LIKE '__%_off'",
        "\"unit type\" IS NULL", "\"unit type\" IS NOT NULL", "NOT \"unit type\" = 'Preserve'",
        "name = 'O''Brien'", "score < 0", "score >= 1.5", "score = 1e-7", "score BETWEEN -3 AND 2",
        "score NOT BETWEEN -3 AND 2", "n = -9223372036854775808", "n = 9223372036854775807", "n < -2",
        "fid IN (1, 3, 5)", "fid NOT IN (1, 3, 5)", "fid = 1 OR fid = 2 AND name = 'x'", "(fid = 1 OR fid = 2) AND name = 'x'",
        "NOT fid = 1 AND NOT fid = 2", "NAME = 'Denali' or FID > 4", "fid <> 2", "fid != 2", "score > n",
        "name IN ('Denali', 'O''Brien') AND score IS NOT NULL",
    ])
    func selectsWhatSQLiteSelectsWithTheText(text: String) throws {
        let db = try table()
        let parsed = try FilterParser.parse(text, columns: ["fid", "name", "unit type", "score", "n"])
        #expect(try fids(db, parsed.sqlite) == fids(db, "(\(text))"), "\(text) rendered \(parsed.sqlite)")
    }

    /// A quote a combining mark follows (one Character to Swift) stays inside the text.
    @Test func aTextHoldingAQuoteAndACombiningMarkStaysText() throws {
        let db = try table()
        let parsed = try FilterParser.parse("name = 'x''\u{301} OR fid > 0 OR name = ''y'", columns: ["fid", "name"])
        #expect(parsed == .comparison(.column("name"), .equal, .text("x'\u{301} OR fid > 0 OR name = 'y")))
        #expect(try fids(db, parsed.sqlite) == [])
    }

    /// As many predicates as the grammar takes make one flat chain SQLite accepts (a nested
    /// rendering overflowed its parser's stack); one more is refused, naming where.
    @Test func theLongestChainRunsAndALongerOneIsRefused() throws {
        let db = try table()
        let chain = (1...FilterParser.maximumPredicates).map { "fid = \($0)" }.joined(separator: " OR ")
        let parsed = try FilterParser.parse(chain, columns: ["fid"])
        guard case .or(let parts) = parsed else { Issue.record("not one chain: \(parsed)"); return }
        #expect(parts.count == FilterParser.maximumPredicates)
        #expect(try fids(db, parsed.sqlite) == [1, 2, 3, 4, 5])
        let error = #expect(throws: FilterSyntaxError.self) { try FilterParser.parse(chain + " OR fid = 0", columns: ["fid"]) }
        #expect(error?.token == "fid" && error?.position == chain.count + 5, "\(error?.description ?? "")")
        #expect(error?.description.contains("more than 500 comparisons") == true)
    }

    @Test func rendersQuotedNamesAndLiteralsParenthesised() throws {
        let parsed = try FilterParser.parse("NOT \"a\"\"b\" = 'x''y' OR c IN (1, -2.5)", columns: ["a\"b", "C"])
        #expect(parsed.sqlite == "((NOT (\"a\"\"b\" = 'x''y')) OR (\"C\" IN (1, -2.5)))")
        #expect(FilterOperand.integer(.min).sqlite == "(-9223372036854775807 - 1)")
        #expect(FilterOperand.real(5).sqlite == "5.0")
    }
}
