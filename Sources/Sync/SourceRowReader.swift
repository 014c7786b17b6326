/// The source's rows as sync works with them: the seam's neutral rows turned into the values
/// the package stores (a geometry as a GeoPackage blob), so reconcile, download and the
/// package's writes compare and store one kind of value.
import Geodatabase
import Geometry
import SQLite
import SourceDrivers

/// Reads a source's rows by global id, in the package's values.
struct SourceRowReader {
    let source: any SyncSource

    /// The source's row of that global id (every column of the table), or nil.
    /// - Throws: ``SyncError`` (`unsupportedLayer`) naming the row when its geometry cannot be
    ///   read.
    func row(_ globalID: String, in table: SyncTable) throws -> RowValues? {
        guard let row = try source.row(globalID, in: table.shape) else { return nil }
        do { return try RowValues(row) } catch let error as GeometryError {
            throw SyncError(.unsupportedLayer, "layer '\(table.name)' row \(globalID): the source's geometry cannot be read: \(error)")
        }
    }

    /// Locks at the source the rows `changes` touch, table by table in name order and each
    /// table's rows in global-id order, before any is read.
    func lockRows(of changes: [PendingChange], tables: [SQLName: SyncTable]) throws {
        let byTable = Dictionary(grouping: changes.filter { $0.operation != .insert }, by: { SQLName($0.table) })
        for name in byTable.keys.sorted() {
            guard let table = tables[name], let rows = byTable[name] else { continue }
            try source.lockRows(rows.map(\.globalID).sorted(), in: table.shape)
        }
    }

    /// The global ids of the source's rows whose `column` equals `value` (a relationship key).
    func globalIDs(in table: SyncTable, where column: String, is value: SQLiteValue) throws -> [String] {
        try source.globalIDs(in: table.shape, where: column, equals: SourceValue(value, isGeometry: false))
    }
}
