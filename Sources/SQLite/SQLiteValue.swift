import Foundation

/// One SQLite value in one of its five storage classes, as a plain `Sendable` value that can
/// cross threads (results of a query, arguments of a statement or of a custom function).
///
/// Text has two cases because a Swift `String` cannot hold bytes that are not UTF-8 (it
/// replaces them with U+FFFD), and real GeoPackages carry Latin-1 text: valid UTF-8 is
/// `.text`, anything else `.textBytes`, both of storage class TEXT. Build text from bytes with
/// ``text(bytes:)`` so the two never overlap; equality and hashing compare text as bytes.
public enum SQLiteValue: Sendable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    /// Text whose bytes are not valid UTF-8, kept byte for byte (never a blob).
    case textBytes([UInt8])
    case blob([UInt8])

    /// SQLite's storage classes, as reported for a column or function argument.
    public enum StorageClass: Sendable, Hashable {
        case null, integer, real, text, blob
    }

    public var storageClass: StorageClass {
        switch self {
        case .null: .null
        case .integer: .integer
        case .real: .real
        case .text, .textBytes: .text
        case .blob: .blob
        }
    }

    public var isNull: Bool { self == .null }

    /// The integer, or nil for any other storage class (no conversion: a real is not truncated).
    public var int64Value: Int64? {
        if case .integer(let v) = self { return v }
        return nil
    }

    /// The number as a Double: reals as they are, integers converted; nil otherwise.
    public var doubleValue: Double? {
        switch self {
        case .real(let v): v
        case .integer(let v): Double(v)
        default: nil
        }
    }

    /// The text, or nil for any other storage class. For names, keys and messages: text that is
    /// not UTF-8 comes back with U+FFFD in place of its bad bytes, as SQLite's own text API
    /// would give it; data must travel as the value itself (or ``textBytesValue``).
    public var stringValue: String? {
        switch self {
        case .text(let v): v
        case .textBytes(let bytes): String(decoding: bytes, as: UTF8.self)
        default: nil
        }
    }

    /// The text's bytes as stored, UTF-8 or not; nil for any other storage class.
    public var textBytesValue: [UInt8]? {
        switch self {
        case .text(let v): Array(v.utf8)
        case .textBytes(let bytes): bytes
        default: nil
        }
    }

    /// True for text whose bytes are not UTF-8 (which no `String` can hold).
    public var isTextBytes: Bool {
        if case .textBytes = self { return true }
        return false
    }

    /// Text built from stored bytes: `.text` when they are valid UTF-8, else `.textBytes`.
    public static func text(bytes: some Collection<UInt8>) -> SQLiteValue {
        if let value = bytes.withContiguousStorageIfAvailable(text(contiguous:)) { return value }
        if let string = String(validating: bytes, as: UTF8.self) { return .text(string) }
        return .textBytes(Array(bytes))
    }

    /// Every TEXT value a statement reads comes here. Decoding is the standard library's fast
    /// path (its validating initializer takes a generic one: about 1,000 instructions for a
    /// global id), and decoding replaces whatever is not UTF-8, so the decoded bytes are the
    /// input's exactly when the input was UTF-8.
    private static func text(contiguous bytes: UnsafeBufferPointer<UInt8>) -> SQLiteValue {
        var decoded = String(decoding: bytes, as: UTF8.self)
        return decoded.withUTF8 { UTF8Bytes.equal($0, bytes) } ? .text(decoded) : .textBytes(Array(bytes))
    }

    /// The blob's bytes, or nil for any other storage class.
    public var blobValue: [UInt8]? {
        if case .blob(let v) = self { return v }
        return nil
    }
}

extension SQLiteValue {
    public init(_ value: Int) { self = .integer(Int64(value)) }
    public init(_ value: Int64) { self = .integer(value) }
    public init(_ value: Double) { self = .real(value) }
    public init(_ value: String) { self = .text(value) }
    public init(_ value: [UInt8]) { self = .blob(value) }
    public init(_ value: Data) { self = .blob([UInt8](value)) }
    /// SQLite has no boolean; it stores 1 and 0.
    public init(_ value: Bool) { self = .integer(value ? 1 : 0) }
}

extension SQLiteValue: ExpressibleByNilLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByStringLiteral, ExpressibleByBooleanLiteral
{
    public init(nilLiteral: ()) { self = .null }
    public init(integerLiteral value: Int64) { self = .integer(value) }
    public init(floatLiteral value: Double) { self = .real(value) }
    public init(stringLiteral value: String) { self = .text(value) }
    public init(booleanLiteral value: Bool) { self.init(value) }
}

extension SQLiteValue: CustomStringConvertible {
    /// The value written as an SQL literal: `NULL`, `42`, `1.5`, `'it''s'`, `X'00FF'`, and text
    /// that is not UTF-8 as `CAST(X'446FF161' AS TEXT)`. For people, see ``displayText``.
    public var description: String {
        switch self {
        case .null:
            return "NULL"
        case .integer(let v):
            return String(v)
        case .real(let v):
            return String(v)
        case .text(let v):
            return SQL.literal(v)
        case .textBytes(let bytes):
            // Text, not a blob, with the same bytes: a literal that SQLite reads back exactly.
            return "CAST(X'" + Self.hex(bytes) + "' AS TEXT)"
        case .blob(let bytes):
            return "X'" + Self.hex(bytes) + "'"
        }
    }

    static func hex(_ bytes: [UInt8]) -> String {
        let hexDigits = Array("0123456789ABCDEF".utf8)
        var hex = [UInt8]()
        hex.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            hex.append(hexDigits[Int(byte >> 4)])
            hex.append(hexDigits[Int(byte & 0x0F)])
        }
        return String(decoding: hex, as: UTF8.self)
    }
}

extension SQLiteValue: Hashable {
    /// Text compares as bytes (Swift's `String ==` would call "é" precomposed and decomposed
    /// equal, and sync must see that edit); other classes as their values.
    public static func == (lhs: SQLiteValue, rhs: SQLiteValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): true
        case (.integer(let x), .integer(let y)): x == y
        case (.real(let x), .real(let y)): x == y
        case (.blob(let x), .blob(let y)): x == y
        case (.text(let x), .text(let y)): UTF8Bytes.equal(x, y)
        case (.text, .textBytes), (.textBytes, .text), (.textBytes, .textBytes):
            lhs.textBytesValue == rhs.textBytesValue
        default: false
        }
    }

    public func hash(into hasher: inout Hasher) {
        switch self {
        case .null: hasher.combine(0)
        case .integer(let v): hasher.combine(1); hasher.combine(v)
        case .real(let v): hasher.combine(2); hasher.combine(v)
        case .text(var v):
            // Both text cases hash their bytes the same way, as they compare.
            hasher.combine(3)
            v.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
            hasher.combine(v.utf8.count)
        case .textBytes(let bytes):
            hasher.combine(3)
            bytes.withUnsafeBytes { hasher.combine(bytes: $0) }
            hasher.combine(bytes.count)
        case .blob(let v): hasher.combine(4); hasher.combine(v)
        }
    }
}

extension SQLiteValue {
    /// The text for people: UTF-8 as it is; in text that is not UTF-8, each byte outside a
    /// valid sequence as `\xF1` and a backslash as `\\`, so Latin-1 "Doña" reads `Do\xF1a`
    /// (not a replacement character) and the bytes can be read back from it; nil when not text.
    public var displayText: String? {
        switch self {
        case .text(let v): return v
        case .textBytes(let bytes): return Self.escapingInvalidUTF8(bytes)
        default: return nil
        }
    }

    /// The bytes decoded as UTF-8 where they are valid, each other byte as `\xHH`, and `\` as `\\`.
    static func escapingInvalidUTF8(_ bytes: [UInt8]) -> String {
        var out = ""
        var index = 0
        while index < bytes.count {
            let length = validSequenceLength(bytes, at: index)
            if bytes[index] == UInt8(ascii: "\\") {
                out += "\\\\"
                index += 1
            } else if length > 0 {
                out += String(decoding: bytes[index..<index + length], as: UTF8.self)
                index += length
            } else {
                out += "\\x" + hex([bytes[index]])
                index += 1
            }
        }
        return out
    }

    /// The length of the valid UTF-8 sequence starting at `index`, or 0 when it is not one.
    private static func validSequenceLength(_ bytes: [UInt8], at index: Int) -> Int {
        let lead = bytes[index]
        let length: Int
        switch lead {
        case 0x00...0x7F: return 1
        case 0xC2...0xDF: length = 2
        case 0xE0...0xEF: length = 3
        case 0xF0...0xF4: length = 4
        default: return 0
        }
        guard index + length <= bytes.count,
              String(validating: bytes[index..<index + length], as: UTF8.self) != nil else { return 0 }
        return length
    }
}
