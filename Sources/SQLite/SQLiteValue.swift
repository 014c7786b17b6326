import Foundation

/// One SQLite value in one of its five storage classes, as a plain `Sendable` value that can
/// cross threads (results of a query, arguments of a statement or of a custom function).
public enum SQLiteValue: Sendable, Hashable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
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
        case .text: .text
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

    /// The text, or nil for any other storage class.
    public var stringValue: String? {
        if case .text(let v) = self { return v }
        return nil
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
    /// The value written as an SQL literal: `NULL`, `42`, `1.5`, `'it''s'`, `X'00FF'`.
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
        case .blob(let bytes):
            let hexDigits = Array("0123456789ABCDEF".utf8)
            var hex = [UInt8]()
            hex.reserveCapacity(bytes.count * 2)
            for byte in bytes {
                hex.append(hexDigits[Int(byte >> 4)])
                hex.append(hexDigits[Int(byte & 0x0F)])
            }
            return "X'" + String(decoding: hex, as: UTF8.self) + "'"
        }
    }
}
