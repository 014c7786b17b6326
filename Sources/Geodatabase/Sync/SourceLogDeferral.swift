/// A sync's own upload logged a batch at a time instead of row by row.
///
/// The change-log triggers cost a trigger program, two statements and their statement
/// journal for every row written (45,000 instructions an update, measured with callgrind; the
/// same entries written 128 to a statement cost 22,000). For the rows an upload writes, the sync knows
/// what the triggers would log: its insert, update or delete of a global id, with the apply
/// context's replica and sync. So inside its write transaction it drops the tracked tables'
/// log triggers, logs each batch it wrote in one statement, and puts the triggers back,
/// with the SQL they had, before the transaction ends. No other connection ever sees the
/// source without them (SQLite has one writer at a time, and readers see only committed
/// schema), and a crash rolls the drop back with everything else.
///
/// Only where nothing but the sync's own statements can write a tracked table meanwhile:
/// the caller checks that no trigger of another tool or user is in the file and that foreign
/// key actions are off (``isSafe(in:geometryColumns:)``), since their writes would go unlogged.
///
/// An update is logged when it found its row, even where it wrote values equal to the
/// stored ones (which the trigger would not log): the upload writes only columns whose values
/// differ from the source's, and an extra entry costs another replica a download of an
/// unchanged row, where a missing one would hide a change from it for ever.
import SQLite

public final class SourceLogDeferral {
    /// One write the upload made: its global id and the operation it logs.
    public typealias Entry = (globalID: String, operation: ChangeOperation)

    private let connection: Connection
    /// The logging statement for each number of entries (all but a table's last batch take 128).
    private var statements: [Int: Statement] = [:]
    /// The dropped triggers, to put back as they were.
    private var dropped: [(name: String, sql: String)] = []

    /// Drops the log triggers of `tables`, in the open transaction.
    public init(tables: [TrackedTable], on connection: Connection) throws {
        self.connection = connection
        for table in tables {
            for (name, _) in SourceGeodatabase.logTriggers(table, uniqueKeys: []) {
                guard let sql = try connection.scalar("SELECT sql FROM sqlite_master WHERE type = 'trigger' AND name = ?",
                                                      [.text(name)])?.stringValue else { continue }
                try connection.execute("DROP TRIGGER \(SQL.identifier(name))")
                dropped.append((name, sql))
            }
        }
    }

    /// True when only the sync's statements write tracked tables during its transaction:
    /// foreign key actions are off, and every trigger in the file is ours, GDAL's R-tree or
    /// feature count triggers, or the GeoPackage standard's own on its `gpkg_` tables.
    public static func isSafe(in connection: Connection, geometryColumns: [String: String]) throws -> Bool {
        guard try connection.scalar("PRAGMA foreign_keys")?.int64Value == 0 else { return false }
        return try connection.query("SELECT name, tbl_name FROM sqlite_master WHERE type = 'trigger'").allSatisfy { row in
            let name = row[0].stringValue ?? "", table = row[1].stringValue ?? ""
            if SQLName(table).hasPrefix(SQLName("gpkg_")) && SQLName(name).hasPrefix(SQLName("gpkg_")) { return true }
            return SourceGeodatabase.isOwnOrGDALTrigger(name, on: table, geometryColumn: geometryColumns[table])
        }
    }

    /// Logs what one batch wrote to `table`, as the triggers would have: each row's entry
    /// rewritten at a new generation, in the order of the writes, with the apply context's
    /// replica and sync. A row written twice keeps its last write's entry.
    public func log(_ entries: [Entry], table: String) throws {
        var start = entries.startIndex
        while start < entries.endIndex {
            let end = min(start + Self.entriesPerStatement, entries.endIndex)
            try logSet(entries[start..<end], table: table)
            start = end
        }
    }

    /// Entries logged by one statement. Its statement journal (in memory, as the source's
    /// temporary storage is) keeps each page it changes, about two per entry in a large log:
    /// 128 entries hold it under a megabyte and cost a statement's overhead 1/128th as often.
    static let entriesPerStatement = 128

    /// One statement: `OR REPLACE` rewrites a row's entry where it has one (it deletes the
    /// old, which fires nothing: the log has no triggers), the new one at the next generation.
    private func logSet(_ entries: ArraySlice<Entry>, table: String) throws {
        let statement = try logStatement(for: entries.count)
        defer { statement.reset() }
        try statement.bind([.text(table)] + entries.flatMap { [SQLiteValue.text($0.globalID), .text($0.operation.rawValue)] })
        while try statement.step() {}
    }

    private func logStatement(for count: Int) throws -> Statement {
        if let known = statements[count] { return known }
        let rows = (0..<count).map { "(?, ?, \($0))" }.joined(separator: ", ")
        let statement = try connection.prepare("""
            INSERT OR REPLACE INTO main.pkgbuild_changes (table_name, globalid, operation, replica_id, sync_id) \
            SELECT ?, column1, column2, (SELECT replica_id FROM main.pkgbuild_apply_context), \
            (SELECT sync_id FROM main.pkgbuild_apply_context) FROM (VALUES \(rows)) ORDER BY column3
            """)
        statements[count] = statement
        return statement
    }

    /// Puts the dropped triggers back, as they were (a rollback to a savepoint may have
    /// brought some back already).
    public func restore() throws {
        for trigger in dropped { try installTrigger(named: trigger.name, sql: trigger.sql, in: connection) }
        dropped = []
    }
}
