/// The change cursor of a PostgreSQL source: positions are snapshots (see ``ChangeCursor``),
/// and the changes since one are the log rows of the transactions it did not see.
import Geodatabase
import PostgreSQL
import SourceDrivers

extension PostgreSQLSyncSource {
    public func position() throws -> SourcePosition {
        guard let row = try connection.queryFirst(ChangeCursor.currentSQL),
              let cursor = row.string(0).flatMap(ChangeCursor.init) else {
            throw SourceError(.unusable, "source \(displayName): the server gave no snapshot")
        }
        return cursor.position
    }

    /// - Throws: ``SourceError`` (`unusable`) for a package without a cursor or with one no
    ///   PostgreSQL source wrote: reading changes from a guess could skip some for ever.
    public func position(cursor: String?, generation: Int64) throws -> SourcePosition {
        try changeCursor(cursor).position
    }

    /// The snapshot a cursor holds.
    /// - Throws: ``SourceError`` (`unusable`) for none, or text no PostgreSQL source wrote.
    private func changeCursor(_ text: String?) throws -> ChangeCursor {
        guard let text, let cursor = ChangeCursor(text) else {
            throw SourceError(.unusable, "source \(displayName): the package's change-log position '\(text ?? "none")' "
                + "was not written by a PostgreSQL source")
        }
        return cursor
    }

    /// The log is whole since `position` unless `source prune` removed rows the package has
    /// not read (its replica expired meanwhile).
    public func checkChangeLog(since position: SourcePosition, excludingReplica replicaID: String, tables: [String]) throws {
        let cursor = try changeCursor(position.cursor)
        let pruned = try connection.queryFirst("SELECT value FROM pkgbuild.settings WHERE key = 'pruned_before'")?
            .string(0).flatMap { Int64($0) } ?? 0
        guard cursor.xmin >= pruned else {
            throw SourceError(.unusable, "source \(displayName): the change log was pruned past this package's position "
                + "(it read up to transaction \(cursor.xmin), the log now starts at \(pruned)); "
                + ReplicaStanding.wayOut(package: "PKG"))
        }
    }

    /// Each changed row once, by its last change in the window, in the order of those last
    /// changes; a row whose last change was the replica's own upload is left out.
    public func forEachChange(since position: SourcePosition, excludingReplica replicaID: String, tables: [String],
                              _ body: (SourceRowChange) throws -> Void) throws {
        let cursor = try changeCursor(position.cursor)
        try connection.forEachRow(throughCursor: """
            SELECT table_name, '{' || upper(globalid::text) || '}' FROM (
                SELECT DISTINCT ON (table_name, globalid) table_name, globalid, id, replica_id FROM pkgbuild.changes
                WHERE table_schema = $1 AND table_name = ANY ($2::text[])
                  AND txid >= $3::text::xid8 AND NOT pg_visible_in_snapshot(txid, $4::pg_snapshot)
                ORDER BY table_name, globalid, id DESC) AS last
            WHERE replica_id IS DISTINCT FROM $5 ORDER BY id
            """, [.text(database.schema), .text(PostgreSQLQuoting.textArray(tables)), .text(String(cursor.xmin)),
                  .text(cursor.snapshot), .text(replicaID)]) { row in
            try body(SourceRowChange(table: row.string(0) ?? "", globalID: row.string(1) ?? ""))
        }
    }
}
