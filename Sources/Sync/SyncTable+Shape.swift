/// A synced table as the seam and the package's row store address it.
import Geodatabase
import SQLite

extension SyncTable {
    /// Every column of the table, by global id.
    public var shape: TableShape {
        TableShape(name: name, keyColumn: keyColumn, globalIDColumn: globalIDColumn, columns: columns,
                   geometryColumn: geometryColumn)
    }
}

extension RowStore {
    /// The package's row of that global id (every column of the table), or nil.
    func row(_ globalID: String, in table: SyncTable) throws -> RowValues? {
        try row(globalID, in: table.shape)
    }

    func insert(_ row: RowValues, into table: SyncTable) throws {
        try insert(row, into: table.shape)
    }

    @discardableResult
    func update(_ globalID: String, set values: RowValues, in table: SyncTable) throws -> Bool {
        try update(globalID, set: values, in: table.shape)
    }

    @discardableResult
    func delete(_ globalID: String, from table: SyncTable) throws -> Bool {
        try delete(globalID, from: table.shape)
    }
}
