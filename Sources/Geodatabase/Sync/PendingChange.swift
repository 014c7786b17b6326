/// The values the package's change tracking hands to sync: a row's values by column, and one
/// pending local change with its base and current rows.
import Geometry
import SQLite

/// A row's values, column by column, in table order, as SQLite holds them.
public typealias RowValues = ColumnValues<SQLiteValue>

extension ColumnValues where Value == SQLiteValue {
    /// The value of a column (any letter case), nil when the row has no such column.
    public subscript(column: String) -> SQLiteValue? {
        if let index = columns.firstIndex(of: column) { return values[index] }
        return columns.firstIndex(name: SQLName(column)).map { values[$0] }
    }
}

/// One row's net local change in a package, against its base (the row as extracted or last
/// synced).
public struct PendingChange: Sendable, Hashable {
    public var table: String
    public var globalID: String
    /// `insert`: a row made offline (no base). `update`: changed (several updates collapse
    /// into one; a row deleted and re-inserted with its global id is an update too).
    /// `delete`: removed (no current row).
    public var operation: ChangeOperation
    /// The row's position in the package's change sequence (its latest change); pass the
    /// largest one seen to ``PackageChangeTracking/clearChanges(through:)``.
    public var position: Int64
    public var base: RowValues?
    public var current: RowValues?
    /// For an update, the columns whose value differs from the base (compared as SQLite
    /// values: a geometry blob GDAL re-encoded counts as changed, so compare geometries as
    /// geometries before calling it a conflict); for an insert, every column with a value;
    /// empty for a delete. Never the key column (local to each database) nor the global id.
    public var changedColumns: [String]

    public init(table: String, globalID: String, operation: ChangeOperation, position: Int64,
                base: RowValues?, current: RowValues?, changedColumns: [String]) {
        self.table = table
        self.globalID = globalID
        self.operation = operation
        self.position = position
        self.base = base
        self.current = current
        self.changedColumns = changedColumns
    }
}
