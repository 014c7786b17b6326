import Testing
@testable import SQLite

@Suite("StatementCache: one prepared statement per SQL text")
struct StatementCacheTests {
    @Test("the same SQL gives the same statement, rewound even when left mid-result")
    func reusedAndRewound() throws {
        let db = try Connection(path: ":memory:")
        try db.execute("CREATE TABLE t(x); INSERT INTO t VALUES (1), (2), (3)")
        let cache = StatementCache(db)
        let first = try cache.statement("SELECT x FROM t ORDER BY x")
        #expect(try first.step() && first.int64(at: 0) == 1)
        // Left on the first row: the next user starts from the beginning.
        let again = try cache.statement("SELECT x FROM t ORDER BY x")
        #expect(again === first)
        var seen: [Int64] = []
        while try again.step() { seen.append(again.int64(at: 0)) }
        #expect(seen == [1, 2, 3])
        #expect(try cache.statement("SELECT count(*) FROM t") !== first)
    }

    @Test("SQL that does not compile throws, naming it, and caches nothing")
    func badSQL() throws {
        let cache = StatementCache(try Connection(path: ":memory:"))
        let error = try #require(throws: SQLiteError.self) { try cache.statement("SELECT FROM nowhere") }
        #expect(error.description.contains("SELECT FROM nowhere"), "\(error)")
        #expect(throws: SQLiteError.self) { try cache.statement("SELECT FROM nowhere") }
    }
}
