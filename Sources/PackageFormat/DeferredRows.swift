/// Source changes a download could not apply yet, so that they are not lost once the
/// package's generation moves past them.
///
/// ```sql
/// CREATE TABLE pkgbuild_deferred (table_name TEXT NOT NULL, globalid TEXT NOT NULL,
///   PRIMARY KEY (table_name, globalid))
/// ```
/// A download leaves a row alone while its local change is pending (the change is reconciled
/// first). If that change is later put back and so never uploaded, nothing else would bring
/// the source's row: the change log is read from the package's generation on. Every sync that
/// downloads brings the deferred rows that are no longer pending, and keeps the rest.
import Geodatabase
import SQLite

public enum DeferredRows {
    public static let table = "pkgbuild_deferred"
    static let ddl = """
        CREATE TABLE IF NOT EXISTS pkgbuild_deferred (table_name TEXT NOT NULL, globalid TEXT NOT NULL, \
        PRIMARY KEY (table_name, globalid))
        """

    /// The deferred rows, by the table names as recorded.
    public static func all(in package: Connection) throws -> [(table: String, globalID: String)] {
        guard try tableExists(table, in: package) else { return [] }
        return try package.query("SELECT table_name, globalid FROM pkgbuild_deferred ORDER BY rowid").map {
            ($0[0].stringValue ?? "", $0[1].stringValue ?? "")
        }
    }

    /// Replaces the list (in the caller's transaction).
    public static func replace(with rows: [(table: String, globalID: String)], in package: Connection) throws {
        if try rows.isEmpty && !tableExists(table, in: package) { return }
        try package.execute(ddl)
        try OwnTables.register(in: package, side: .package)
        try package.execute("DELETE FROM pkgbuild_deferred")
        let insert = try package.prepare("INSERT OR IGNORE INTO pkgbuild_deferred (table_name, globalid) VALUES (?, ?)")
        for row in rows {
            insert.reset()
            try insert.bind([.text(row.table), .text(row.globalID)])
            while try insert.step() {}
        }
    }
}
