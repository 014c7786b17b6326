/// Downloads that meet a UNIQUE index of the package.
///
/// The package applies source changes one row at a time, so an office exchange of two unique
/// values (through a free one, as SQLite forces) reaches it as a write that collides with a
/// row the download has not brought yet. A row the package holds only as a copy of the
/// source's (no pending local change) can be taken out and brought again from the source,
/// which loses nothing. A row with a pending local change keeps its value: the source's row
/// waits in `pkgbuild_deferred` until that change is settled.
import Geodatabase
import PackageFormat
import SQLite

extension SyncRun {
    /// Runs `write` (the package's write of a source row); on a UNIQUE collision with another
    /// package row, frees the value as described above and tries once more.
    /// - Returns: false when the row had to wait (deferred).
    func writeFreeingUniqueValues(_ globalID: String, in table: SyncTable, scope: DownloadScope,
                                  run: inout SyncRunState, _ write: () throws -> Void) throws -> Bool {
        do {
            try write()
            return true
        } catch let error as SQLiteError where error.isUniqueViolation {
            guard let holder = try packageHolder(of: globalID, in: table, columns: error.uniqueColumns),
                  !run.leftAlone.contains(RowKey(table.name, holder)) else {
                run.deferred.insert(RowKey(table.name, globalID))
                return false
            }
            // The holder is the source's copy: out of the way, written, then brought again.
            try packageRows.delete(holder, from: table)
            try write()
            run.leftAlone.insert(RowKey(table.name, globalID))
            defer { run.leftAlone.remove(RowKey(table.name, globalID)) }
            try bringSourceRow(holder, table: table, scope: scope, run: &run, counts: false)
            return true
        }
    }

    /// The package row (its global id) that holds the unique values the source row of
    /// `globalID` takes.
    private func packageHolder(of globalID: String, in table: SyncTable, columns: [String]) throws -> String? {
        guard !columns.isEmpty, let wanted = try sourceRows.row(globalID, in: table) else { return nil }
        let values = columns.map { wanted[$0] ?? .null }
        guard !values.contains(.null) else { return nil }
        return try packageRows.holder(of: Array(zip(columns, values)), in: table.shape, besides: globalID)
    }
}
