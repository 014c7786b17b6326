/// The CHECK on the `operation` column of the change logs (`pkgbuild_changes` in a source,
/// `pkgbuild_edits` in a package), and its upgrade in files made before it.
///
/// SQLite evaluates `operation IN ('insert', 'update', 'delete')` through a temporary b-tree
/// it builds afresh each time a trigger logs a row (an IN list of three or more values is
/// looked up, not compared): measured with callgrind, that was about a third of the
/// instructions of an upload's row. `operation = 'insert' OR ...` is the same rule without it.
import SQLite

enum OperationCheck {
    static let sql = "CHECK (operation = 'insert' OR operation = 'update' OR operation = 'delete')"
    /// The CHECK as files made before this one spell it.
    static let earlierSQL = "CHECK (operation IN ('insert', 'update', 'delete'))"

    /// Whether the stored CREATE TABLE of `log` still has the earlier CHECK.
    static func needsUpgrade(_ log: String, in connection: Connection) throws -> Bool {
        try storedSQL(of: log, in: connection)?.contains(earlierSQL) ?? false
    }

    /// Rewrites the earlier CHECK of `log` to the equivalent one, in the caller's write
    /// transaction, by SQLite's documented procedure for changing a CHECK constraint (the
    /// table's stored SQL edited under `writable_schema`, `schema_version` incremented): the
    /// rows, their order and the AUTOINCREMENT sequence stay as they are, since the rule is the
    /// same. Does nothing when `log` has no earlier CHECK, or holds an operation no CHECK
    /// allows (written past it by another tool): the sync's own check then names that row.
    /// - Throws: `SQLiteError`; ``GeodatabaseError`` (`invalidContent`) when the table fails
    ///   SQLite's check afterwards (the caller's transaction then rolls it back).
    static func upgrade(_ log: String, in connection: Connection) throws {
        guard let stored = try storedSQL(of: log, in: connection), stored.contains(earlierSQL),
              try connection.scalar("SELECT 1 FROM \(SQL.identifier(log)) WHERE \(ChangeOperation.unknownOperationSQL) LIMIT 1") == nil
        else { return }
        let version = try connection.scalar("PRAGMA schema_version")?.int64Value ?? 0
        try connection.execute("PRAGMA writable_schema = ON")
        do {
            try connection.execute("UPDATE sqlite_master SET sql = ? WHERE type = 'table' AND name = ?",
                                   [.text(stored.replacing(earlierSQL, with: sql)), .text(log)])
            try connection.execute("PRAGMA schema_version = \(version + 1)")
        } catch {
            // The edit's own error is the one to report; the caller's transaction undoes it.
            try? connection.execute("PRAGMA writable_schema = OFF")
            throw error
        }
        try connection.execute("PRAGMA writable_schema = OFF")
        let verdict = try connection.scalar("PRAGMA quick_check(\(SQL.literal(log)))")?.stringValue
        guard verdict == "ok" else {
            throw GeodatabaseError(.invalidContent, "\(connection.path): \(log) fails SQLite's check after its CHECK was rewritten: \(verdict ?? "no answer")")
        }
    }

    private static func storedSQL(of log: String, in connection: Connection) throws -> String? {
        try connection.scalar("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?", [.text(log)])?.stringValue
    }
}
