/// Pruning the change log (`pkgbuild source prune`), which every tracked schema of the database
/// shares, and expiring replicas unused for too long so they do not hold it for ever.
///
/// A package's next download takes the log rows whose transaction its snapshot did not see,
/// all at or above the snapshot's xmin (its generation). So every row below the smallest
/// generation of the replicas still registered (active or pending, any schema) is needed by
/// nobody: the bound. With no replica at all the bound is the current snapshot's xmin (any
/// later package starts from a snapshot at least that high). A transaction still open is at or
/// above every such xmin, so its rows are never pruned.
///
/// A package being built is not registered until its rows are read: a prune meanwhile may pass
/// its position, and then ``ReplicaRegistry/registerReplica(_:)`` refuses it (build again)
/// rather than lose changes. The two meet on the `pruned_before` settings row, which a prune
/// locks first and a registration reads `FOR SHARE`, so neither misses the other.
///
/// Pruning is not automatic: a sync never deletes log rows, an administrator runs `source
/// prune` (from cron, say). Expiry retires replicas, which the package's crew must then
/// re-attach, so it runs only when asked for, with the age stated.
import Foundation
import Geodatabase
import PostgreSQL

public enum LogPruning {
    static let prunedBeforeKey = "pruned_before"

    /// What a prune did.
    public struct Outcome: Sendable {
        /// Log rows of transactions below this generation are gone.
        public var prunedBefore: Int64
        /// The bound of the prune before this one (0 for none).
        public var previous: Int64
        public var deletedRows: Int
        public var remainingRows: Int
        /// The replica at the lowest position, which holds the log back (nil with no replica left).
        public var heldBy: ReplicaHold?
        public var expired: [ReplicaHold]
    }

    /// A replica and how long it went unused.
    public struct ReplicaHold: Sendable {
        public var id: String
        public var schema: String
        public var name: String?
        public var generation: Int64
        /// Its last sync, or its registration when it never synced (UTC text).
        public var lastUsed: String
    }

    /// The bound the log was pruned before (0 when never), its settings row share-locked until
    /// the caller's transaction ends, so that no prune passes a registration being made.
    static func prunedBefore(lockingIn connection: Connection) throws -> Int64 {
        try prunedBefore(in: connection, lock: " FOR SHARE")
    }

    /// The bound the log was pruned before (0 when never).
    static func prunedBefore(in connection: Connection, lock: String = "") throws -> Int64 {
        let row = try connection.queryFirst("SELECT value FROM pkgbuild.settings WHERE key = $1\(lock)", [.text(prunedBeforeKey)])
        return row?.string(0).flatMap { Int64($0) } ?? 0
    }

    /// Prunes the log, after retiring the replicas unused for longer than `expireAfter` whose
    /// hold the prune passes. One transaction: all of it or nothing.
    static func prune(_ connection: Connection, expireAfterSeconds: Int?, displayName: String) throws -> Outcome {
        try connection.withTransaction {
            // The settings row first: a registration under way finishes before the bound is read.
            let previous = try Int64(connection.queryFirst("""
                INSERT INTO pkgbuild.settings (key, value) VALUES ($1, '0')
                ON CONFLICT (key) DO UPDATE SET value = pkgbuild.settings.value RETURNING value
                """, [.text(prunedBeforeKey)])?.string(0) ?? "0") ?? 0
            let candidates = try expireAfterSeconds.map { try unusedReplicas(connection, olderThanSeconds: $0) } ?? []
            let holds = try replicaHolds(connection, excluding: candidates.map(\.id))
            let current = try ReplicaRegistry.currentGeneration(in: connection)
            let bound = max(previous, min(holds.first?.generation ?? current, current))
            let expired = candidates.filter { $0.generation < bound }
            for replica in expired {
                try ReplicaRegistry(connection: connection, sourceSchema: replica.schema, displayName: displayName)
                    .unregisterReplica(id: replica.id, by: "expired: unused since \(replica.lastUsed); the change log was pruned past it",
                                       successor: nil)
            }
            let deleted = try connection.execute("DELETE FROM pkgbuild.changes WHERE txid < $1::text::xid8", [.text(String(bound))])
            try connection.execute("UPDATE pkgbuild.settings SET value = $2 WHERE key = $1", [.text(prunedBeforeKey), .text(String(bound))])
            let remaining = try connection.queryFirst("SELECT count(*) FROM pkgbuild.changes")?.int(0) ?? 0
            return Outcome(prunedBefore: bound, previous: previous, deletedRows: deleted, remainingRows: remaining,
                           heldBy: holds.first, expired: expired)
        }
    }

    /// Replicas (any schema) whose last sync, or registration when they never synced, is older
    /// than that, locked: one syncing meanwhile is judged again on its new last sync.
    static func unusedReplicas(_ connection: Connection, olderThanSeconds seconds: Int) throws -> [ReplicaHold] {
        try connection.query("""
            \(holdSelect) WHERE coalesce(last_sync_at, created_at) < now() - make_interval(secs => $1::double precision)
            ORDER BY 4, 1 FOR UPDATE
            """, [.text(String(seconds))]).map(hold(from:))
    }

    /// Every replica (any schema) but `excluded`, lowest generation first.
    static func replicaHolds(_ connection: Connection, excluding excluded: [String]) throws -> [ReplicaHold] {
        try connection.query("\(holdSelect) WHERE NOT (replica_id = ANY($1::text[])) ORDER BY 4, 1",
                             [.text(PostgreSQLQuoting.textArray(excluded))]).map(hold(from:))
    }

    static let holdSelect = """
        SELECT replica_id, source_schema, name,
          CASE WHEN last_sync_id IS NULL THEN extraction_generation ELSE sync_generation END,
          \(TrackingSchema.utcText("coalesce(last_sync_at, created_at)")) FROM pkgbuild.replicas
        """

    static func hold(from row: Row) throws -> ReplicaHold {
        ReplicaHold(id: row.string(0) ?? "", schema: row.string(1) ?? "", name: row.string(2),
                    generation: try int64(row, 3), lastUsed: row.string(4) ?? "")
    }

    /// Seconds in an age as people write it: a whole number and a unit, `30d`, `12h`, `90m`,
    /// `45s`, `2w`. Nil for anything else (zero included: every replica would expire).
    public static func seconds(inAge text: String) -> Int? {
        let units: [Character: Int] = ["s": 1, "m": 60, "h": 3_600, "d": 86_400, "w": 604_800]
        guard let unit = text.last.flatMap({ units[$0] }), let count = Int(text.dropLast()), count > 0,
              count <= Int.max / unit else { return nil }
        return count * unit
    }
}
