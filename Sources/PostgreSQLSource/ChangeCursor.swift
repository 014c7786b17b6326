/// Where a package's downloads have read a PostgreSQL source's change log up to: a snapshot
/// (`pg_current_snapshot()`, text `xmin:xmax:xip,…`), read in the download's own REPEATABLE
/// READ transaction, the one that reads the rows.
///
/// Why a snapshot and not a sequence number (PgQ's and OSM's replication technique): log rows
/// are numbered when written, not when committed, so a transaction that began earlier and
/// commits later has smaller numbers than rows a reader already passed, and "changes since N"
/// would miss it for ever. The next download takes the log rows whose transaction was not
/// visible in the package's snapshot and is visible in its own (every row its transaction
/// sees is), bounded below by the old snapshot's xmin: every transaction below it had ended
/// when the package read, so the index on txid skips the log the package has seen.
///
/// The generation the replica registry records is the snapshot's xmin: it never decreases,
/// and a package whose generation is above the source's current xmin comes from a database
/// that has since been restored from an older backup.
import SourceDrivers

struct ChangeCursor: Sendable, Hashable {
    /// The snapshot's text, as `pg_snapshot` reads it back.
    var snapshot: String
    var xmin: Int64

    /// Reads a cursor a package kept.
    /// - Returns: nil for text that is not a snapshot (a cursor of another backend's driver).
    init?(_ text: String) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 3, let xmin = Int64(parts[0]), let xmax = Int64(parts[1]), xmin <= xmax,
              parts[2].isEmpty || parts[2].split(separator: ",").allSatisfy({ Int64($0) != nil }) else { return nil }
        (snapshot, self.xmin) = (text, xmin)
    }

    var position: SourcePosition { SourcePosition(cursor: snapshot, generation: xmin) }

    /// The SELECT yielding the current snapshot and its xmin.
    static let currentSQL = "SELECT pg_current_snapshot()::text, pg_snapshot_xmin(pg_current_snapshot())::text::bigint"
}
