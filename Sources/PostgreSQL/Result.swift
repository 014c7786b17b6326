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
        // Through raw pointers: a bytea or geometry column is megabytes of hex per scan.
        let bytes = values.withUnsafeBufferPointer { table in
            [UInt8](unsafeUninitializedCapacity: hex.count / 2) { out, count in
                var i = 0
                while i < hex.count / 2 {
                    let high = table[Int(hex[2 &* i])], low = table[Int(hex[2 &* i &+ 1])]
                    if high > 15 || low > 15 { valid = false; break }
                    out[i] = high << 4 | low
                    i &+= 1
                }
                count = i
            }
        }
        return valid ? bytes : nil
    }
}
