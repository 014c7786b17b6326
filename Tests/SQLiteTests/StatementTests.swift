import Foundation
import Testing
import TestSupport
@testable import SQLite

@Suite("Statement: bind, step, typed columns")
struct StatementTests {
    static let blobBytes: [UInt8] = [0x00, 0x47, 0x50, 0xFF, 0x00]

    @Test("every storage class binds by index and reads back, checked by the sqlite3 shell")
    func bindAllTypesByIndex() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("types.sqlite")
        let db = try Connection(path: path)
        try db.execute("CREATE TABLE t(i, r, s, b, e, n)")
        let insert = try db.prepare("INSERT INTO t VALUES (?, ?, ?, ?, ?, ?)")
        #expect(insert.parameterCount == 6)
        try insert.bind(.integer(Int64.min), at: 1)
        try insert.bind(.real(-0.1), at: 2)
        try insert.bind("Gates of the Arctic \u{00E9}\u{1F3D4}", at: 3)
        try insert.bind(SQLiteValue(Data(Self.blobBytes)), at: 4)
        try insert.bind(.blob([]), at: 5)
        try insert.bind(nil, at: 6)
        #expect(try insert.step() == false)

        let shell = try runProcess("sqlite3", [path, "SELECT typeof(i), i, typeof(r), r, typeof(s), hex(s), typeof(b), hex(b), typeof(e), length(e), typeof(n) FROM t"])
        #expect(shell.stdout.trimmingCharacters(in: .newlines) ==
            "integer|-9223372036854775808|real|-0.1|text|" +
            "4761746573206F66207468652041726374696320C3A9F09F8F94" +
            "|blob|004750FF00|blob|0|null")

        let select = try db.prepare("SELECT i, r, s, b, e, n FROM t")
        #expect(try select.step())
        #expect(select.columnNames == ["i", "r", "s", "b", "e", "n"])
        #expect((0..<6).map(select.columnType(at:)) == [.integer, .real, .text, .blob, .blob, .null])
        #expect(select.int64(at: 0) == Int64.min)
        #expect(select.double(at: 1) == -0.1)
        #expect(select.string(at: 2) == "Gates of the Arctic \u{00E9}\u{1F3D4}")
        #expect(select.blob(at: 3) == Self.blobBytes)
        #expect(select.blob(at: 4) == [])
        #expect(select.blob(at: 5) == nil)
        #expect(select.string(at: 5) == nil)
        #expect(select.isNull(at: 5))
        #expect(select.values == [.integer(Int64.min), .real(-0.1), .text("Gates of the Arctic \u{00E9}\u{1F3D4}"),
                                  .blob(Self.blobBytes), .blob([]), .null])
        #expect(try select.step() == false)
    }

    @Test("named parameters, declared types, reset and rebinding")
    func namedParametersAndReset() throws {
        let db = try Connection(path: ":memory:")
        try db.execute("CREATE TABLE parks(fid INTEGER PRIMARY KEY, name TEXT NOT NULL, area REAL, geom MULTIPOLYGON)")
        let insert = try db.prepare("INSERT INTO parks(name, area) VALUES (:name, @area)")
        #expect(insert.parameterIndex(named: ":name") == 1)
        #expect(insert.parameterIndex(named: "@area") == 2)
        try insert.bind(["@area": 1.5, ":name": "Denali"])
        try insert.step()
        insert.reset()
        try insert.bind("Katmai", named: ":name")  // @area keeps 1.5
        try insert.step()
        insert.reset()
        insert.clearBindings()
        let error = try #require(throws: SQLiteError.self) { try insert.step() }
        #expect(error.isConstraintViolation)
        #expect(error.extendedCode == 1299)  // SQLITE_CONSTRAINT_NOTNULL

        let unknown = try #require(throws: SQLiteError.self) { try insert.bind(1, named: ":nope") }
        #expect(unknown.message == "no parameter named :nope")
        let count = try #require(throws: SQLiteError.self) { try insert.bind([1]) }
        #expect(count.message == "1 arguments for 2 parameters")
        #expect(throws: SQLiteError.self) { try insert.bind(1, at: 3) }

        let select = try db.prepare("SELECT fid, name, area, geom, area * 2 AS twice FROM parks ORDER BY fid")
        #expect((0..<5).map(select.declaredType(at:)) == ["INTEGER", "TEXT", "REAL", "MULTIPOLYGON", nil])
        #expect(select.columnName(at: 4) == "twice")
        var rows: [[SQLiteValue]] = []
        while let row = try select.nextRow() { rows.append(row) }
        #expect(rows == [[1, "Denali", 1.5, nil, 3.0], [2, "Katmai", 1.5, nil, 3.0]])
        select.reset()
        #expect(try select.nextRow()?[1] == "Denali")
    }

    @Test("a statement is one statement; a script is refused with the reason")
    func oneStatementOnly() throws {
        let db = try Connection(path: ":memory:")
        let error = try #require(throws: SQLiteError.self) { try db.prepare("SELECT 1; SELECT 2") }
        #expect(error.message == "more than one statement; use execute(_:) for scripts")
        #expect(try db.prepare("SELECT 1; -- trailing comment\n").columnCount == 1)
        let syntax = try #require(throws: SQLiteError.self) { try db.prepare("SELEC 1") }
        #expect(syntax.description == "SQLite error 1: near \"SELEC\": syntax error - while executing \"SELEC 1\"")
    }

    @Test("isReadOnly tells reads from writes")
    func readOnlyStatements() throws {
        let db = try Connection(path: ":memory:")
        try db.execute("CREATE TABLE t(x)")
        #expect(try db.prepare("SELECT x FROM t").isReadOnly)
        #expect(try !db.prepare("INSERT INTO t VALUES (1)").isReadOnly)
        #expect(try !db.prepare("DROP TABLE t").isReadOnly)
    }

    @Test("streaming a million rows does not grow memory")
    func streamingDoesNotMaterialise() throws {
        let db = try Connection(path: ":memory:")
        let sql = """
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 1000000)
            SELECT i, printf('%0100d', i) FROM n
            """
        let before = try residentBytes()
        var count = 0
        var sum: Int64 = 0
        var textBytes = 0
        try db.forEachRow(sql) { row in
            count += 1
            sum += row.int64(at: 0)
            textBytes += row.string(at: 1)?.utf8.count ?? 0
        }
        let growth = try residentBytes() - before
        #expect(count == 1_000_000)
        #expect(sum == 500_000_500_000)
        #expect(textBytes == 100_000_000)
        // The rows' text alone is 100 MB; a materialised result would hold all of it.
        #expect(growth < 32 << 20, "resident memory grew by \(growth >> 20) MB")
    }

    /// Resident set size of this process, from /proc (Linux).
    private func residentBytes() throws -> Int {
        let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
        let line = try #require(status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") })
        let kilobytes = try #require(Int(line.split(separator: " ", omittingEmptySubsequences: true)[1]))
        return kilobytes * 1024
    }
}
