/// A sync's own upload logged a batch at a time instead of row by row.
///
/// The change-log triggers cost a trigger program, two statements and their statement
/// journal for every row written (45,000 instructions an update, measured with callgrind; the
/// same entries written as a set cost 19,000). For the rows an upload writes, the sync knows
/// what the triggers would log: its insert, update or delete of a global id, with the apply
/// context's replica and sync. So inside its write transaction it drops the tracked tables'
/// log triggers, logs each batch it wrote in three statements, and puts the triggers back,
/// with the SQL they had, before the transaction ends. No other connection ever sees the
/// source without them (SQLite has one writer at a time, and readers see only committed
/// schema), and a crash rolls the drop back with everything else.
///
/// Only where nothing but the sync's own statements can write a tracked table meanwhile:
/// the caller checks that no trigger of another tool or user is in the file and that foreign
/// key actions are off (``isSafe(in:)``), since their writes would go unlogged.
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
    private let statements: StatementCache
    /// The dropped triggers, to put back as they were.
    private var dropped: [(name: String, sql: String)] = []

    static let stagingDDL = """
        CREATE TEMP TABLE IF NOT EXISTS pkgbuild_upload_log (seq INTEGER PRIMARY KEY, \
        globalid TEXT NOT NULL UNIQUE, operation TEXT NOT NULL)
        """

    /// Drops the log triggers of `tables`, in the open transaction.
    public init(tables: [TrackedTable], on connection: Connection) throws {
        self.connection = connection
        statements = StatementCache(connection)
        try connection.execute(Self.stagingDDL)
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
            return isOwnOrGDALTrigger(name, on: table, geometryColumn: geometryColumns[table])
        }
    }

    /// True for our triggers and those GDAL puts on a feature table (its R-tree's, and its
    /// feature count's), which write nothing but their own tables.
    public static func isOwnOrGDALTrigger(_ name: String, on table: String, geometryColumn: String?) -> Bool {
        var known = [SQLName("pkgbuild_"), SQLName("trigger_insert_feature_count_\(table)"),
                     SQLName("trigger_delete_feature_count_\(table)")]
        if let geometryColumn {
            known.append(SQLName(GeometryColumnInfo.rtreeName(table: table, column: geometryColumn) + "_"))
        }
        return known.contains(where: SQLName(name).hasPrefix)
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

    private func logSet(_ entries: ArraySlice<Entry>, table: String) throws {
        let stage = try statements.statement("INSERT OR REPLACE INTO temp.pkgbuild_upload_log (globalid, operation) VALUES (?, ?)")
        for entry in entries {
            defer { stage.reset() }
            try stage.bind([.text(entry.globalID), .text(entry.operation.rawValue)])
            while try stage.step() {}
        }
        let name = SQLiteValue.text(table)
        try run("""
            DELETE FROM main.pkgbuild_changes WHERE table_name = ? \
            AND globalid IN (SELECT globalid FROM temp.pkgbuild_upload_log)
            """, [name])
        try run("""
            INSERT INTO main.pkgbuild_changes (table_name, globalid, operation, replica_id, sync_id) \
            SELECT ?, globalid, operation, (SELECT replica_id FROM main.pkgbuild_apply_context), \
            (SELECT sync_id FROM main.pkgbuild_apply_context) FROM temp.pkgbuild_upload_log ORDER BY seq
            """, [name])
        try run("DELETE FROM temp.pkgbuild_upload_log", [])
    }

    private func run(_ sql: String, _ arguments: [SQLiteValue]) throws {
        let statement = try statements.statement(sql)
        defer { statement.reset() }
        try statement.bind(arguments)
        while try statement.step() {}
    }

    /// Puts the dropped triggers back, as they were (a rollback to a savepoint may have
    /// brought some back already).
    public func restore() throws {
        for trigger in dropped { try installTrigger(named: trigger.name, sql: trigger.sql, in: connection) }
        dropped = []
        try connection.execute("DROP TABLE IF EXISTS temp.pkgbuild_upload_log")
    }
}
