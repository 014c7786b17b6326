/// The GeoPackage source's side of the conflict store: the conflicts of each applied sync, kept at the source
/// (`pkgbuild_sync_conflicts`, the package table's value columns plus `sync_id`) and written
/// in the sync's own source transaction, so that a sync interrupted after the source committed
/// learns from it, on its re-run, which rows stayed pending.
import Geodatabase
import PackageFormat
import SQLite

extension ConflictStore {
    static let sourceTable = "pkgbuild_sync_conflicts"

    static let sourceDDL = """
        CREATE TABLE IF NOT EXISTS pkgbuild_sync_conflicts (sync_id TEXT NOT NULL, \
        table_name TEXT NOT NULL, globalid TEXT NOT NULL, column_name TEXT, kind TEXT NOT NULL, \
        base_value TEXT, package_value TEXT, source_value TEXT, resolution TEXT, resolved_by TEXT, message TEXT, \
        other_rows TEXT)
        """

    static func recordAtSource(_ conflicts: [Conflict], syncID: String, in source: Connection) throws {
        guard !conflicts.isEmpty else { return }
        try prepare(sourceTable, ddl: sourceDDL, in: source)
        try OwnTables.register(in: source, side: .source)
        let insert = try source.prepare("INSERT INTO pkgbuild_sync_conflicts (sync_id, \(valueColumns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")
        for conflict in conflicts {
            insert.reset()
            try insert.bind([.text(syncID)] + values(of: conflict))
            while try insert.step() {}
        }
    }

    static func recordedAtSource(syncID: String, in source: Connection) throws -> [Conflict] {
        guard try tableExists(sourceTable, in: source) else { return [] }
        return try source.query("SELECT \(try readColumns(sourceTable, in: source)) FROM pkgbuild_sync_conflicts WHERE sync_id = ? ORDER BY rowid",
                                [.text(syncID)]).map(conflict(from:))
    }
}
