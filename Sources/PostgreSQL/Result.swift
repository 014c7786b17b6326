import CLibPQ
import Foundation

/// One `PGresult`, freed with `PQclear` when the last row reading it is released.
final class Result {
    let handle: OpaquePointer

    /// Takes ownership of `handle`.
    init(_ handle: OpaquePointer) { self.handle = handle }

    deinit { PQclear(handle) }

    var rowCount: Int { Int(PQntuples(handle)) }
    var columnCount: Int { Int(PQnfields(handle)) }

    /// The rows a command changed (`PQcmdTuples`: empty for commands that report none).
    var affectedRows: Int { Int(String(cString: PQcmdTuples(handle))) ?? 0 }

    /// The command tag (`INSERT 0 1`, `COMMIT`, `ROLLBACK`).
    var commandStatus: String { String(cString: PQcmdStatus(handle)) }
}

/// A row of a result: its values as the server sent them in text format, decoded on request.
/// Column indexes start at 0.
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

    public func isNull(_ column: Int) -> Bool { PQgetisnull(result.handle, row, Int32(column)) == 1 }

    /// The value's bytes as sent, or nil for NULL. Valid while the row is.
    func withRawBytes<T>(_ column: Int, _ body: (UnsafeBufferPointer<UInt8>) throws -> T) rethrows -> T? {
        if isNull(column) { return nil }
        let length = Int(PQgetlength(result.handle, row, Int32(column)))
        // PQgetvalue points into the PGresult, which this row keeps alive.
        let start = UnsafeRawPointer(PQgetvalue(result.handle, row, Int32(column))!)
        return try body(UnsafeBufferPointer(start: start.assumingMemoryBound(to: UInt8.self), count: length))
    }

    /// The value as text, or nil for NULL.
    public func string(_ column: Int) -> String? {
        withRawBytes(column) { String(decoding: $0, as: UTF8.self) }
    }

    public func int(_ column: Int) throws -> Int? {
        guard let text = string(column) else { return nil }
        guard let value = Int(text) else { throw unexpected(column, text, "an integer") }
        return value
    }

    /// PostgreSQL's text of a double (`Infinity`, `NaN` included) as a Double.
    public func double(_ column: Int) throws -> Double? {
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
        try withRawBytes(column) { raw -> [UInt8] in
            let hex = raw.starts(with: [UInt8(ascii: "\\"), UInt8(ascii: "x")]) ? UnsafeBufferPointer(rebasing: raw.dropFirst(2)) : raw
            guard let bytes = Hex.decode(hex) else {
                throw unexpected(column, String(decoding: raw.prefix(40), as: UTF8.self), "hex bytes")
            }
            return bytes
        }
    }

    private func unexpected(_ column: Int, _ text: String, _ wanted: String) -> PostgreSQLError {
        PostgreSQLError(.unexpectedValue, "column \(column + 1) (\(name(column))) holds '\(text)', not \(wanted)")
    }
}

enum Hex {
    private static let values: [UInt8] = (0..<256).map { byte -> UInt8 in
        switch UInt8(byte) {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt8(byte) - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt8(byte) - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt8(byte) - UInt8(ascii: "A") + 10
        default: 0xFF
        }
    }

    /// The bytes `hex` spells, or nil for an odd length or a character that is not hex.
    static func decode(_ hex: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        guard hex.count % 2 == 0 else { return nil }
        var valid = true
        let bytes = [UInt8](unsafeUninitializedCapacity: hex.count / 2) { out, count in
            for i in 0..<hex.count / 2 {
                let high = values[Int(hex[2 * i])], low = values[Int(hex[2 * i + 1])]
                if high == 0xFF || low == 0xFF { valid = false; break }
                out[i] = high << 4 | low
                count = i + 1
            }
        }
        return valid ? bytes : nil
    }
}
