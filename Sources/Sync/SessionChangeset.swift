/// Pending edits as a SQLite session changeset (the binary format of `sqlite3session_changeset`,
/// https://www.sqlite.org/sessionintro.html), the format Mergin Maps' geodiff reads and applies.
///
/// Per table: `'T'`, the column count (varint), one byte per column (1 for the primary key,
/// the package's fid), the table name and a NUL. Per row: the operation (INSERT 18, UPDATE 23,
/// DELETE 9), an indirect flag (0), then records of values: an INSERT's new row, a DELETE's old
/// row, an UPDATE's old values (primary key and changed columns; others undefined) followed by
/// its new values (changed columns; others undefined). A value is a type byte (0 undefined,
/// 1 integer, 2 real, 3 text, 4 blob, 5 NULL) followed by 8 big-endian bytes for numbers, or a
/// varint length and the bytes for text and blobs.
import SQLite

public enum SessionChangeset {
    /// Encodes the edits (grouped by table in `tables` order).
    public static func encode(_ edits: [PendingEdit], tables: [SyncTable]) -> [UInt8] {
        var out: [UInt8] = []
        for table in tables {
            let rows = edits.filter { $0.table == table.name }
            guard !rows.isEmpty else { continue }
            out.append(UInt8(ascii: "T"))
            putVarint(UInt64(table.columns.count), into: &out)
            for column in table.columns { out.append(column == table.keyColumn ? 1 : 0) }
            out += Array(table.name.utf8)
            out.append(0)
            for edit in rows {
                switch edit.operation {
                case .insert:
                    out += [18, 0]
                    for column in table.columns { put(edit.current?[column] ?? .null, into: &out) }
                case .delete:
                    out += [9, 0]
                    for column in table.columns { put(edit.base?[column] ?? .null, into: &out) }
                case .update:
                    out += [23, 0]
                    let changed = Set(edit.changes.map(\.column))
                    for column in table.columns {
                        if column == table.keyColumn {
                            put(edit.current?[column] ?? edit.key, into: &out)
                        } else if changed.contains(column) {
                            put(edit.base?[column] ?? .null, into: &out)
                        } else {
                            out.append(0)
                        }
                    }
                    for column in table.columns {
                        if changed.contains(column) { put(edit.current?[column] ?? .null, into: &out) } else { out.append(0) }
                    }
                }
            }
        }
        return out
    }

    private static func put(_ value: SQLiteValue, into out: inout [UInt8]) {
        switch value {
        case .null:
            out.append(5)
        case .integer(let v):
            out.append(1)
            putBigEndian(UInt64(bitPattern: v), into: &out)
        case .real(let v):
            out.append(2)
            putBigEndian(v.bitPattern, into: &out)
        case .text(let v):
            out.append(3)
            let bytes = Array(v.utf8)
            putVarint(UInt64(bytes.count), into: &out)
            out += bytes
        case .textBytes(let bytes):
            // Text that is not UTF-8 travels as its bytes, type TEXT, as SQLite's session would.
            out.append(3)
            putVarint(UInt64(bytes.count), into: &out)
            out += bytes
        case .blob(let bytes):
            out.append(4)
            putVarint(UInt64(bytes.count), into: &out)
            out += bytes
        }
    }

    private static func putBigEndian(_ v: UInt64, into out: inout [UInt8]) {
        for shift in stride(from: 56, through: 0, by: -8) { out.append(UInt8(truncatingIfNeeded: v >> UInt64(shift))) }
    }

    /// SQLite's varint: big-endian groups of 7 bits, the high bit set on all but the last byte;
    /// a ninth byte, when needed, carries 8 bits.
    static func putVarint(_ v: UInt64, into out: inout [UInt8]) {
        if v >> 56 != 0 {
            var bytes: [UInt8] = [UInt8(truncatingIfNeeded: v)]
            var rest = v >> 8
            for _ in 0..<8 {
                bytes.append(UInt8(truncatingIfNeeded: rest & 0x7F) | 0x80)
                rest >>= 7
            }
            out += bytes.reversed()
            return
        }
        var groups: [UInt8] = []
        var rest = v
        repeat {
            groups.append(UInt8(truncatingIfNeeded: rest & 0x7F))
            rest >>= 7
        } while rest != 0
        for (index, group) in groups.reversed().enumerated() {
            out.append(index == groups.count - 1 ? group : group | 0x80)
        }
    }
}
