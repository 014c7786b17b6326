import CLibPQ
import Foundation

/// A row of a result: its values as the server sent them, decoded on request. Column indexes
/// start at 0.
///
/// A value comes in text format unless the query asked for ``ResultFormat/binary``: then the
/// accessors read PostgreSQL's binary send format (big-endian integers and IEEE doubles, a
/// bytea or a PostGIS geometry as its raw bytes, EWKB for the latter).
public struct Row {
    let result: Result
    let row: Int32

    init(_ result: Result, _ row: Int) {
        self.result = result
        self.row = Int32(row)
    }

    /// The number of columns.
    public var count: Int { result.columnCount }

    /// The name of column `column` as the query gives it.
    public func name(_ column: Int) -> String { String(cString: PQfname(result.handle, Int32(column))) }

    /// The index of the column called `name`, or nil.
    public func index(of name: String) -> Int? {
        // PQfnumber folds unquoted names to lower case; quoting keeps the name as given.
        let index = PQfnumber(result.handle, "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\"")
        return index < 0 ? nil : Int(index)
    }

    /// The type OID of column `column` (`pg_type.oid`: 17 bytea, 25 text, 23 int4...).
    public func typeOID(_ column: Int) -> UInt32 { PQftype(result.handle, Int32(column)) }

    /// Whether column `column` came in binary format.
    public func isBinary(_ column: Int) -> Bool { PQfformat(result.handle, Int32(column)) == 1 }

    public func isNull(_ column: Int) -> Bool { PQgetisnull(result.handle, row, Int32(column)) == 1 }

    /// The value's bytes as sent, or nil for NULL. Valid while the row is.
    func withRawBytes<T>(_ column: Int, _ body: (UnsafeBufferPointer<UInt8>) throws -> T) rethrows -> T? {
        if isNull(column) { return nil }
        let length = Int(PQgetlength(result.handle, row, Int32(column)))
        // PQgetvalue points into the PGresult, which this row keeps alive.
        let start = UnsafeRawPointer(PQgetvalue(result.handle, row, Int32(column))!)
        return try body(UnsafeBufferPointer(start: start.assumingMemoryBound(to: UInt8.self), count: length))
    }

    /// The value as text, or nil for NULL (in binary format, the bytes of a text column).
    public func string(_ column: Int) -> String? {
        withRawBytes(column) { String(decoding: $0, as: UTF8.self) }
    }

    /// An integer column's value (int2, int4, int8 in binary; any integer text in text format).
    public func int(_ column: Int) throws -> Int? {
        if isBinary(column) { return try binaryInteger(column) }
        guard let text = string(column) else { return nil }
        guard let value = Int(text) else { throw unexpected(column, text, "an integer") }
        return value
    }

    /// PostgreSQL's text of a double (`Infinity`, `NaN` included) as a Double.
    public func double(_ column: Int) throws -> Double? {
        if isBinary(column) { return try binaryDouble(column) }
        guard let text = string(column) else { return nil }
        switch text {
        case "Infinity": return .infinity
        case "-Infinity": return -.infinity
        case "NaN": return .nan
        default:
            guard let value = Double(text) else { throw unexpected(column, text, "a number") }
            return value
        }
    }

    public func bool(_ column: Int) throws -> Bool? {
        if isBinary(column) {
            return try withRawBytes(column) { raw in
                guard raw.count == 1 else { throw unexpected(column, "\(raw.count) bytes", "a boolean") }
                return raw[0] != 0
            }
        }
        guard let text = string(column) else { return nil }
        switch text {
        case "t": return true
        case "f": return false
        default: throw unexpected(column, text, "a boolean")
        }
    }

    /// The bytes of a `bytea` (its `\x` hex text) or of a value sent as bare hex, as PostGIS
    /// sends a geometry (hex EWKB); nil for NULL.
    public func bytes(_ column: Int) throws -> [UInt8]? {
        if isBinary(column) { return withRawBytes(column) { Array($0) } }
        return try withRawBytes(column) { raw -> [UInt8] in
            let hex = raw.starts(with: [UInt8(ascii: "\\"), UInt8(ascii: "x")]) ? UnsafeBufferPointer(rebasing: raw.dropFirst(2)) : raw
            guard let bytes = Hex.decode(hex) else {
                throw unexpected(column, String(decoding: raw.prefix(40), as: UTF8.self), "hex bytes")
            }
            return bytes
        }
    }

    func unexpected(_ column: Int, _ text: String, _ wanted: String) -> PostgreSQLError {
        PostgreSQLError(.unexpectedValue, "column \(column + 1) (\(name(column))) holds '\(text)', not \(wanted)")
    }
}
