/// Byte equality of UTF-8 text, by memcmp. SQLite compares TEXT and identifiers as bytes
/// (Swift's `String ==` calls canonically equivalent spellings equal, and sync must see that
/// edit); the generic `elementsEqual` over the bytes costs some 600 instructions a global id,
/// and sync compares every column of every row it reconciles.
import Foundation

public enum UTF8Bytes {
    public static func equal(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
        a.count == b.count && (a.isEmpty || memcmp(a.baseAddress!, b.baseAddress!, a.count) == 0)
    }

    public static func equal(_ x: String, _ y: String) -> Bool {
        guard x.utf8.count == y.utf8.count else { return false }
        var x = x, y = y
        return x.withUTF8 { a in y.withUTF8 { b in equal(a, b) } }
    }
}
