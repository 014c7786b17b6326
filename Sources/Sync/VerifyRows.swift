/// Rows read for `verify` exactly as stored: text keeps its bytes (`SQLiteValue` carries
/// text that is not UTF-8 as its bytes, so Latin-1 text and its mangled copy differ).
import Geodatabase
import SQLite
import SourceDrivers

/// One stored row.
struct VerifyRow {
    var values: RowValues

    /// The value of column `index` as SQLite holds it: text by its bytes.
    func exact(_ index: Int) -> ExactValue { ExactValue(values.values[index]) }
}

/// A value compared byte for byte: text as its bytes, never decoded.
enum ExactValue: Equatable {
    case null
    case integer(Int64)
    case real(Double)
    case text([UInt8])
    case blob([UInt8])

    init(_ value: SQLiteValue) {
        switch value {
        case .null: self = .null
        case .integer(let v): self = .integer(v)
        case .real(let v): self = .real(v)
        case .text(let v): self = .text(Array(v.utf8))
        case .textBytes(let v): self = .text(v)
        case .blob(let v): self = .blob(v)
        }
    }

    /// Equal values; an integer equals a real of the same value (a client may store 2 where
    /// the source has 2.0, and nothing is lost either way).
    func same(_ other: ExactValue) -> Bool {
        switch (self, other) {
        case (.integer(let x), .real(let y)), (.real(let y), .integer(let x)): return Double(x) == y
        default: return self == other
        }
    }
}

/// The rows of one synced table in one database, in global id order (SQLite's BINARY order,
/// which is the order of the ids' bytes), one at a time: memory does not grow with the table.
///
/// - Important: Holds a statement of its connection: one owner at a time.
final class VerifyCursor {
    private let nextValues: () throws -> [SQLiteValue]?
    private let columns: [String]
    private let globalIndex: Int
    /// The row under the cursor and its global id (bytes, to order as SQLite does); nil at the end.
    private(set) var current: (id: [UInt8], row: VerifyRow)?

    /// Every row of `table` in the package.
    convenience init(_ table: SyncTable, in connection: Connection) throws {
        try self.init(table, sql: """
            SELECT \(table.columns.map(SQL.identifier).joined(separator: ", ")) FROM \(SQL.identifier(table.name))
            ORDER BY \(SQL.identifier(table.globalIDColumn))
            """, arguments: [], in: connection)
    }

    /// The rows `sql` selects in the package, `table.columns` in order.
    convenience init(_ table: SyncTable, sql: String, arguments: [SQLiteValue], in connection: Connection) throws {
        let statement = try connection.prepare(sql)
        try statement.bind(arguments)
        let count = table.columns.count
        try self.init(table) { try statement.step() ? (0..<count).map { statement.value(at: $0) } : nil }
    }

    /// Every row of `table` at the source, in the values the package stores.
    convenience init(_ table: SyncTable, at source: any SyncSource) throws {
        let rows = try source.rowsByGlobalID(in: table.shape)
        try self.init(table) { try rows.next().map { try RowValues($0).values } }
    }

    private init(_ table: SyncTable, next: @escaping () throws -> [SQLiteValue]?) throws {
        columns = table.columns
        globalIndex = table.columns.firstIndex(of: table.globalIDColumn) ?? 0
        nextValues = next
        try advance()
    }

    /// Moves to the next row.
    func advance() throws {
        guard let values = try nextValues() else {
            current = nil
            return
        }
        // Ordered by the id's bytes, as SQLite orders it; a row without a global id sorts first
        // (NULL) and is keyed by nothing.
        let id: [UInt8] = switch values[globalIndex] {
        case .text(let text): Array(text.utf8)
        case .textBytes(let bytes): bytes
        default: []
        }
        current = (id, VerifyRow(values: RowValues(columns: columns, values: values)))
    }
}
