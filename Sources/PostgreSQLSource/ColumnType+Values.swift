/// Values of each column type in both directions: the text a select expression yields read as
/// a seam value, and a seam value made the parameter PostgreSQL reads back as the same value.
import Geodatabase
import Geometry
import PostgreSQL
import SourceDrivers

extension ColumnType {
    /// The value of this type's select expression at `index` of `row` (text format).
    func value(in row: Row, at index: Int) throws -> SourceValue {
        if row.isNull(index) { return .null }
        switch self {
        case .smallint, .integer, .bigint:
            return .integer(Int64(try row.int(index) ?? 0))
        case .real:
            // float4's shortest text read as a float4, then widened: the exact stored value.
            guard let text = row.string(index), let value = Float(Self.swiftNumberText(text)) else {
                throw PostgreSQLError(.unexpectedValue, "column \(row.name(index)) holds '\(row.string(index) ?? "")', not a real")
            }
            return .real(Double(value))
        case .double:
            return .real(try row.double(index) ?? 0)
        case .boolean:
            return .integer(try row.bool(index) == true ? 1 : 0)
        case .bytea:
            return .blob(try row.bytes(index) ?? [])
        case .geometry(let info):
            let wkb = try row.bytes(index) ?? []
            return .geometry(GeometryValue(wkb: wkb, srsID: info.srsID, isEmpty: Self.isEmptyWKB(wkb)))
        case .text, .numeric, .date, .timestamptz, .timestamp, .uuid, .globalID, .json, .jsonb, .array, .other:
            // The connection's client encoding is UTF8: the server's text is valid UTF-8.
            return .text(row.string(index) ?? "")
        }
    }

    /// `Infinity`/`NaN` as Swift's number parser spells them.
    private static func swiftNumberText(_ text: String) -> String {
        switch text {
        case "Infinity": "inf"
        case "-Infinity": "-inf"
        case "NaN": "nan"
        default: text
        }
    }

    /// Whether ISO WKB holds an empty geometry: a collection of no parts, or a point whose
    /// coordinates are all NaN (WKB's only way to say POINT EMPTY).
    static func isEmptyWKB(_ wkb: [UInt8]) -> Bool {
        guard wkb.count >= 9 else { return false }
        let little = wkb[0] == 1
        func uint32(_ at: Int) -> UInt32 {
            let bytes = wkb[at..<at + 4]
            return little ? bytes.reversed().reduce(0) { $0 << 8 | UInt32($1) } : bytes.reduce(0) { $0 << 8 | UInt32($1) }
        }
        if uint32(1) % 1000 == 1 {
            var offset = 5
            while offset + 8 <= wkb.count {
                let bytes = wkb[offset..<offset + 8]
                let bits = little ? bytes.reversed().reduce(0) { $0 << 8 | UInt64($1) } : bytes.reduce(0) { $0 << 8 | UInt64($1) }
                if !Double(bitPattern: bits).isNaN { return false }
                offset += 8
            }
            return true
        }
        return uint32(5) == 0
    }

    /// The parameter that writes `value` into a column of this type named `column`.
    /// - Throws: ``SourceRefusal`` for a value of a kind the type cannot hold.
    func parameter(_ value: SourceValue, column: String) throws -> Parameter {
        if case .null = value { return .null }
        switch (self, value) {
        case (.smallint, .integer(let v)), (.integer, .integer(let v)), (.bigint, .integer(let v)),
             (.real, .integer(let v)), (.double, .integer(let v)), (.numeric, .integer(let v)):
            return .text(String(v))
        case (.smallint, .real(let v)), (.integer, .real(let v)), (.bigint, .real(let v)):
            guard v.rounded() == v, let whole = Int64(exactly: v) else { break }
            return .text(String(whole))
        case (.real, .real(let v)), (.double, .real(let v)), (.numeric, .real(let v)):
            return .double(v)
        case (.boolean, .integer(let v)):
            return .bool(v != 0)
        case (.bytea, .blob(let bytes)):
            return .bytea(bytes)
        case (.bytea, .text(let text)):
            return .bytea(Array(text.utf8))
        case (.bytea, .textBytes(let bytes)):
            return .bytea(bytes)
        case (.geometry, .geometry(let geometry)):
            return .bytea(geometry.wkb)
        case (.geometry, _), (.bytea, _):
            break
        // Text of any other type goes to the server as it is: the type's input function
        // reads it, and refuses text it cannot (a number that is none, a bad date).
        case (_, .text(let text)):
            return .text(text)
        case (_, .textBytes(let bytes)):
            return .textBytes(bytes)
        case (.text, .integer(let v)), (.other, .integer(let v)):
            return .text(String(v))
        case (.text, .real(let v)), (.other, .real(let v)):
            return .double(v)
        default:
            break
        }
        throw SourceRefusal(message: "column \(column) cannot hold \(Self.describe(value)) as \(declaredType)")
    }

    private static func describe(_ value: SourceValue) -> String {
        switch value {
        case .null: "NULL"
        case .integer(let v): "the integer \(v)"
        case .real(let v): "the number \(v)"
        case .text(let text): "the text '\(text.prefix(40))'"
        case .textBytes: "text that is not UTF-8"
        case .blob(let bytes): "a blob of \(bytes.count) bytes"
        case .geometry: "a geometry"
        }
    }
}
