/// Rows whose pending change has no base: a re-attach could not know what the package and the
/// source last agreed on, so each difference must be a conflict, not a merge.
///
/// ```sql
/// CREATE TABLE pkgbuild_no_base (table_name TEXT NOT NULL, globalid TEXT NOT NULL,
///   PRIMARY KEY (table_name, globalid))
/// ```
/// A row stays listed until its change is cleared by a sync, and the reconcile ignores its
/// base row, which holds NULLs only (see ``mark(_:of:globalIDColumn:as:in:)``).
import Geodatabase
import SQLite

public enum NoBaseRows {
    public static let table = "pkgbuild_no_base"
    static let ddl = """
        CREATE TABLE IF NOT EXISTS pkgbuild_no_base (table_name TEXT NOT NULL, globalid TEXT NOT NULL, \
        PRIMARY KEY (table_name, globalid))
        """

    /// Makes the row's change pending with no base: `update` for a row the package holds,
    /// `delete` for one it lacks (in the caller's transaction).
    /// - Parameters:
    ///   - table: the tracked table, by its name in the package.
    ///   - globalIDColumn: its globalid column.
    public static func mark(_ globalID: String, of table: String, globalIDColumn: String, as operation: ChangeOperation,
                            in package: Connection) throws {
        // Once per package, not per row: a re-attach marks every differing row.
        if try !tableExists(Self.table, in: package) {
            try package.execute(ddl)
            try OwnTables.register(in: package, side: .package)
        }
        try package.execute("INSERT OR REPLACE INTO pkgbuild_edits (table_name, globalid, operation) VALUES (?, ?, ?)",
                            [.text(table), .text(globalID), .text(operation.rawValue)])
        // A base of NULLs, not none: the edit triggers keep a base once saved, so a later edit
        // cannot slip in a base of its own, and an edit put back cannot look like no change.
        try package.execute("""
            INSERT OR REPLACE INTO \(SQL.identifier(SyncSchema.baseTable(for: table))) (\(SQL.identifier(globalIDColumn))) VALUES (?)
            """, [.text(globalID)])
        try package.execute("INSERT OR IGNORE INTO pkgbuild_no_base (table_name, globalid) VALUES (?, ?)",
                            [.text(table), .text(globalID)])
    }

    /// The rows listed.
    public static func all(in package: Connection) throws -> Set<RowKey> {
        guard try tableExists(table, in: package) else { return [] }
        return Set(try package.query("SELECT table_name, globalid FROM pkgbuild_no_base").map {
            RowKey($0[0].stringValue ?? "", $0[1].stringValue ?? "")
        })
    }

    /// Forgets the rows whose change a sync cleared.
    public static func prune(in package: Connection) throws {
        guard try tableExists(table, in: package) else { return }
        try package.execute("""
            DELETE FROM pkgbuild_no_base WHERE NOT EXISTS (SELECT 1 FROM pkgbuild_edits e
              WHERE e.table_name = pkgbuild_no_base.table_name AND e.globalid = pkgbuild_no_base.globalid)
            """)
    }
}
