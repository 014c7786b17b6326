import Foundation
import Testing
import TestSupport
@testable import SQLite

/// Latin-1 "Doña": the bytes older GeoPackage clients write, not valid UTF-8.
private let latin1Doña: [UInt8] = [0x44, 0x6F, 0xF1, 0x61]

@Suite("Text that is not UTF-8 travels byte for byte")
struct TextBytesTests {
    @Test("a TEXT column of Latin-1 bytes reads as textBytes, binds back as TEXT with the same bytes")
    func roundTrip() throws {
        let db = try Connection(path: ":memory:")
        try db.execute("CREATE TABLE t(name TEXT); INSERT INTO t VALUES (CAST(x'446FF161' AS TEXT))")
        let read = try #require(try db.scalar("SELECT name FROM t"))
        #expect(read == .textBytes(latin1Doña))
        #expect(read.storageClass == .text)

        try db.execute("INSERT INTO t VALUES (?)", [read])
        let rows = try db.query("SELECT typeof(name), hex(name) FROM t")
        #expect(rows == [["text", "446FF161"], ["text", "446FF161"]])
    }

    @Test("valid UTF-8 stays .text; text(bytes:) picks the case")
    func validStaysText() throws {
        let db = try Connection(path: ":memory:")
        #expect(try db.scalar("SELECT CAST(x'446FC3B161' AS TEXT)") == .text("Doña"))
        #expect(SQLiteValue.text(bytes: Array("Doña".utf8)) == .text("Doña"))
        #expect(SQLiteValue.text(bytes: latin1Doña) == .textBytes(latin1Doña))
    }

    @Test("equality and hashing compare text as bytes")
    func equalityByBytes() {
        // Precomposed and decomposed ñ: equal as Swift Strings, different bytes on disk.
        let composed = SQLiteValue.text("Do\u{F1}a"), decomposed = SQLiteValue.text("Don\u{303}a")
        #expect(composed != decomposed)
        #expect(Set([composed, decomposed]).count == 2)
        #expect(SQLiteValue.textBytes(latin1Doña) != .textBytes([0x44, 0x6F, 0xF2, 0x61]))
        #expect(SQLiteValue.textBytes(latin1Doña) != composed)
        #expect(SQLiteValue.textBytes(latin1Doña) != .blob(latin1Doña))
        // A textBytes built with valid bytes by hand still equals the same .text.
        #expect(SQLiteValue.textBytes(Array("ab".utf8)) == .text("ab"))
        #expect(SQLiteValue.textBytes(Array("ab".utf8)).hashValue == SQLiteValue.text("ab").hashValue)
    }

    @Test("shown escaped for people, never with a replacement character", arguments: [
        ([0x44, 0x6F, 0xF1, 0x61], "Do\\xF1a"),
        ([0x43, 0x3A, 0x5C, 0xE9], "C:\\\\\\xE9"),
        ([0xC3, 0xB1, 0xFF, 0xE2, 0x82], "ñ\\xFF\\xE2\\x82"),
    ] as [([UInt8], String)])
    func display(bytes: [UInt8], shown: String) {
        let value = SQLiteValue.text(bytes: bytes)
        #expect(value.displayText == shown)
        #expect(value.stringValue?.contains("\u{FFFD}") == true)
    }

    @Test("the SQL literal of Latin-1 text reads back as the same TEXT bytes")
    func literal() throws {
        let db = try Connection(path: ":memory:")
        let value = SQLiteValue.textBytes(latin1Doña)
        #expect(try db.query("SELECT typeof(\(value.description)), hex(\(value.description))") == [["text", "446FF161"]])
    }

    @Test("a custom function gets and returns the bytes unchanged")
    func functions() throws {
        let db = try Connection(path: ":memory:")
        try db.createFunction("same", argumentCount: 1) { $0[0] }
        try db.createInPlaceFunction("same_in_place", argumentCount: 1) { $0.value(at: 0) }
        let rows = try db.query("""
            SELECT typeof(same(CAST(x'446FF161' AS TEXT))), hex(same(CAST(x'446FF161' AS TEXT))),
                   hex(same_in_place(CAST(x'446FF161' AS TEXT)))
            """)
        #expect(rows == [["text", "446FF161", "446FF161"]])
        #expect(try db.scalar("SELECT same(CAST(x'446FF161' AS TEXT))") == .textBytes(latin1Doña))
    }
}
