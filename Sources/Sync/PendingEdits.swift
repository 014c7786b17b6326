/// The pending local edits of a package, for `pkgbuild changes`: what the next sync would try
/// to upload, each against its base.
import Foundation
import Geodatabase
import PackageFormat
import SQLite

/// One pending edit of one row, with the values that changed.
public struct PendingEdit: Sendable, Hashable {
    /// One changed column: its base value (nil for an insert) and its value now (nil for a delete).
    public struct ColumnChange: Sendable, Hashable {
        public var column: String
        public var old: SQLiteValue?
        public var new: SQLiteValue?
    }

    public var table: String
    public var globalID: String
    /// The row's key in the package (its fid), local to the package.
    public var key: SQLiteValue
    public var operation: ChangeOperation
    public var changes: [ColumnChange]
    /// The whole row as it was and as it is (nil when absent), in table column order.
    public var base: RowValues?
    public var current: RowValues?
}

/// The package's pending edits.
public enum PendingEdits {
    /// The synced tables with their columns, and every pending edit, table by table.
    public static func list(package url: URL) throws -> (tables: [SyncTable], edits: [PendingEdit]) {
        let files = try PackageFiles(url)
        let package = try GeoPackage(path: files.data.path, readOnly: true)
        let tracked = try PackageChangeTracking(connection: package.connection).trackedTables()
        let schema = try GeoPackageSchema.read(from: package.connection)
        let tables = tracked.map { t in
            SyncTable(name: t.name, keyColumn: t.keyColumn, globalIDColumn: t.globalIDColumn, columns: t.columns,
                      geometryColumn: schema.layer(named: t.name)?.geometryColumn?.name)
        }
        var edits: [PendingEdit] = []
        let comparator = ValueComparator()
        try PackageChangeTracking(connection: package.connection).forEachPendingChange { change in
            guard let table = tables.first(where: { $0.name == change.table }) else { return }
            let key = (change.current ?? change.base)?[table.keyColumn] ?? .null
            let changes: [PendingEdit.ColumnChange]
            switch change.operation {
            case .insert:
                changes = table.columns.map { .init(column: $0, old: nil, new: change.current?[$0] ?? .null) }
            case .delete:
                changes = table.columns.map { .init(column: $0, old: change.base?[$0] ?? .null, new: nil) }
            case .update:
                // A geometry only re-encoded (GDAL re-saved it) is no change, as sync sees it.
                changes = change.changedColumns.filter {
                    !comparator.equal(table, $0, change.base?[$0] ?? .null, change.current?[$0] ?? .null)
                }.map { .init(column: $0, old: change.base?[$0] ?? .null, new: change.current?[$0] ?? .null) }
                if changes.isEmpty { return }
            }
            edits.append(PendingEdit(table: table.name, globalID: change.globalID, key: key, operation: change.operation,
                                     changes: changes, base: change.base, current: change.current))
        }
        return (tables, edits)
    }
}
