import Foundation
import Testing
@testable import SQLite

@Suite("In-place functions and borrowed bytes")
struct InPlaceFunctionTests {
    @Test("an in-place function reads blobs, integers and NULL where SQLite holds them")
    func readsArgumentsInPlace() throws {
        let db = try Connection(path: ":memory:")
        try db.createInPlaceFunction("byte_sum", argumentCount: 1) { args in
            .integer(args.withBytes(at: 0) { bytes in bytes.reduce(0) { $0 + Int64($1) } })
        }
        try db.createInPlaceFunction("kinds") { args in
            .text((0..<args.count).map { "\(args.storageClass(at: $0))" }.joined(separator: ","))
        }
        try db.createInPlaceFunction("plus_one", argumentCount: 1) { args in .integer(args.int64(at: 0) + 1) }
        #expect(try db.scalar("SELECT byte_sum(x'0102ff')") == .integer(258))
        #expect(try db.scalar("SELECT byte_sum(x'')") == .integer(0))
        #expect(try db.scalar("SELECT byte_sum(NULL)") == .integer(0))
        #expect(try db.scalar("SELECT byte_sum('AB')") == .integer(131))
        #expect(try db.scalar("SELECT kinds(1, 2.5, 'a', x'00', NULL)") == .text("integer,real,text,blob,null"))
        #expect(try db.scalar("SELECT plus_one(41)") == .integer(42))
    }

    @Test("a thrown error fails the statement, naming the function")
    func errorsFailTheStatement() throws {
        let db = try Connection(path: ":memory:")
        struct Refused: Error, CustomStringConvertible { var description: String { "refused" } }
        try db.createInPlaceFunction("refuse", argumentCount: 0, deterministic: false) { _ in throw Refused() }
        let error = try #require(throws: SQLiteError.self) { try db.scalar("SELECT refuse()") }
        #expect(error.message == "refuse(): refused")
    }

    @Test("blobs bound from a buffer and read back without copying round-trip, empty ones included")
    func borrowedBytesRoundTrip() throws {
        let db = try Connection(path: ":memory:")
        try db.execute("CREATE TABLE t (b BLOB)")
        let insert = try db.prepare("INSERT INTO t VALUES (?)")
        for bytes: [UInt8] in [[1, 2, 3], []] {
            try bytes.withUnsafeBytes { try insert.bind(bytes: $0, at: 1) }
            try insert.step()
            insert.reset()
        }
        #expect(try db.query("SELECT typeof(b), hex(b) FROM t") == [[.text("blob"), .text("010203")], [.text("blob"), .text("")]])
        var read: [[UInt8]] = []
        try db.forEachRow("SELECT b FROM t") { row in read.append(row.withBytes(at: 0) { Array($0) }) }
        #expect(read == [[1, 2, 3], []])
        #expect(throws: SQLiteError.self) { try [UInt8]([1]).withUnsafeBytes { try insert.bind(bytes: $0, at: 2) } }
    }

    @Test("a blob lent for one step is stored, and the statement lets go of it afterwards")
    func lentBlobIsStoredAndReleased() throws {
        let db = try Connection(path: ":memory:")
        try db.execute("CREATE TABLE t (n INTEGER, b BLOB)")
        let insert = try db.prepare("INSERT INTO t VALUES (?, ?)")
        for (n, bytes) in [(1, []), (2, [UInt8](repeating: 0xAB, count: 10_000))] {
            try insert.bind(.integer(Int64(n)), at: 1)
            try bytes.withUnsafeBytes { buffer in try insert.withBlob(buffer, boundAt: 2) { _ = try insert.step() } }
            insert.reset()
        }
        // Stepped again without binding: the lent bytes are no longer bound, NULL is.
        try insert.bind(.integer(3), at: 1)
        try insert.step()
        insert.reset()
        let rows = try db.query("SELECT n, typeof(b), length(b), hex(substr(b, 1, 2)) FROM t ORDER BY n")
        #expect(rows == [[.integer(1), .text("blob"), .integer(0), .text("")],
                         [.integer(2), .text("blob"), .integer(10_000), .text("ABAB")],
                         [.integer(3), .text("null"), .null, .text("")]], "\(rows)")
        #expect(throws: SQLiteError.self) {
            try [UInt8]([1]).withUnsafeBytes { buffer in try insert.withBlob(buffer, boundAt: 3) { _ = try insert.step() } }
        }
    }
}
