/// The apply context: how a sync tells the triggers that the writes it is making are not
/// ordinary edits. It is the single row of `pkgbuild_apply_context`, inserted at the start of
/// the sync's own transaction and deleted before it commits, so no other connection ever
/// sees it (SQLite has one writer at a time) and a crash rolls it back with everything else.
///
/// - In a source, the change-log triggers copy its `replica_id` and `sync_id` into every
///   `pkgbuild_changes` row they write, so a download can skip the changes a replica's own
///   upload made (no echo), while an office edit made later still shows.
/// - In a package, the edit triggers record nothing while it is present: rows a download
///   writes are the new base, not local edits.
import SQLite

public enum ApplyContext {
    /// Runs `body` with the apply context set, in a transaction (a savepoint when one is open).
    /// - Throws: ``GeodatabaseError``: `notEnabled` for a database without our tables,
    ///   `invalidArgument` when a context is already set (nested use); `body`'s error, after
    ///   rolling back.
    public static func with<T>(replicaID: String?, syncID: String?, on connection: Connection,
                               _ body: () throws -> T) throws -> T {
        try connection.withTransaction(.immediate) {
            guard try tableExists(SyncSchema.applyContextTable, in: connection) else {
                throw GeodatabaseError(.notEnabled, "\(connection.path) is not sync-enabled (no pkgbuild_apply_context)")
            }
            if try connection.scalar("SELECT 1 FROM pkgbuild_apply_context") != nil {
                throw GeodatabaseError(.invalidArgument, "\(connection.path): an apply context is already set")
            }
            try connection.execute("INSERT INTO pkgbuild_apply_context (id, replica_id, sync_id) VALUES (1, ?, ?)",
                                   [replicaID.map(SQLiteValue.text) ?? .null, syncID.map(SQLiteValue.text) ?? .null])
            let result = try body()
            try connection.execute("DELETE FROM pkgbuild_apply_context")
            return result
        }
    }
}
