import Foundation
import Geodatabase
import PostgreSQL
@testable import PostgreSQLSource
import Testing
import TestSupport

/// `source prune` at the registry level: the bound is the lowest position of any registered
/// replica of any schema, rows of a transaction still open stay, the bound is recorded, and
/// expiry retires exactly the replicas unused too long whose position the prune passes.
@Suite(registryNeedsCluster)
struct LogPruningTests {
    /// The ids of the change-log rows left, as psql reads them.
    func remainingIDs(_ db: RegistryDatabase) throws -> [Int64] {
        try db.psql("SELECT id FROM pkgbuild.changes ORDER BY id").split(separator: "\n").compactMap { Int64($0) }
    }

    @Test func pruneDeletesExactlyTheRowsBelowTheOldestReplicaAndKeepsAnOpenTransactions() throws {
        let db = try RegistryDatabase()
        let first = try db.logChange()
        let replica = try db.register("denali.pkg", generation: try db.waitForXmin(atLeast: first.txid + 1))
        let second = try db.logChange()
        // A transaction still open, with a row of its own, and one that committed after it began.
        let writer = try Connection(db.database.conninfo)
        try writer.execute("BEGIN")
        let open = try db.logChange(on: writer)
        let third = try db.logChange()
        #expect(first.txid < replica.extractionGeneration && second.txid >= replica.extractionGeneration)

        let pruned = try LogPruning.prune(db.connection, expireAfterSeconds: nil, displayName: "test")
        // The open transaction's row is not visible yet: 2 rows remain to be seen.
        #expect(pruned.prunedBefore == replica.extractionGeneration && pruned.deletedRows == 1 && pruned.remainingRows == 2)
        #expect(pruned.heldBy?.id == replica.id)
        #expect(try remainingIDs(db) == [second.id, third.id])
        #expect(try db.psql("SELECT value FROM pkgbuild.settings WHERE key = 'pruned_before'") == "\(replica.extractionGeneration)")

        // The replica synced up to now: the open transaction is the xmin, and its row stays.
        let now = try db.waitForXmin(atLeast: open.txid)
        #expect(now == open.txid)
        try db.registry().recordSync(replicaID: replica.id, syncID: "s1", generation: now)
        let again = try LogPruning.prune(db.connection, expireAfterSeconds: nil, displayName: "test")
        #expect(again.prunedBefore == open.txid && again.previous == replica.extractionGeneration)
        #expect(try remainingIDs(db) == [third.id])

        // Committed after the bound was set at it: its row is there for the replica's next
        // download, and a prune before that sync keeps it.
        try writer.execute("COMMIT")
        #expect(try remainingIDs(db) == [open.id, third.id])
        #expect(try LogPruning.prune(db.connection, expireAfterSeconds: nil, displayName: "test").deletedRows == 0)
        #expect(try remainingIDs(db) == [open.id, third.id])

        // Passed by the replica's next sync: all gone.
        try db.registry().recordSync(replicaID: replica.id, syncID: "s2", generation: try db.waitForXmin(atLeast: third.txid + 1))
        _ = try LogPruning.prune(db.connection, expireAfterSeconds: nil, displayName: "test")
        #expect(try remainingIDs(db).isEmpty)
    }

    /// The log is the database's: a replica of another schema holds it too, a pending one as
    /// well as an active one; with no replica left, the current xmin bounds it.
    @Test func everySchemasReplicasHoldTheSharedLog() throws {
        let db = try RegistryDatabase()
        let plot = try db.register("plots.pkg", schema: "field")  // pending, never synced
        let early = try db.logChange(table: "parks")
        let park = try db.register("denali.pkg", schema: "public")
        let parkGeneration = try db.currentXmin()
        try db.registry().recordSync(replicaID: park.id, syncID: "s1", generation: parkGeneration)
        let pruned = try LogPruning.prune(db.connection, expireAfterSeconds: nil, displayName: "test")
        #expect(pruned.prunedBefore == plot.extractionGeneration && pruned.deletedRows == 0)
        // Transaction ids are the cluster's: another test's open transaction can hold the xmin,
        // and then both replicas stand at one position and either may be named.
        #expect(pruned.heldBy?.schema == "field" || parkGeneration == plot.extractionGeneration, "\(String(describing: pruned.heldBy))")
        #expect(try remainingIDs(db) == [early.id])
        try db.registry("field").unregisterReplica(id: plot.id, by: "test", successor: nil)
        try db.registry("public").unregisterReplica(id: park.id, by: "test", successor: nil)
        let writer = try Connection(db.database.conninfo)
        try writer.execute("BEGIN")
        let open = try db.logChange(on: writer)
        try db.waitForXmin(atLeast: open.txid)
        let empty = try LogPruning.prune(db.connection, expireAfterSeconds: nil, displayName: "test")
        #expect(empty.prunedBefore == open.txid && empty.heldBy == nil)
        try writer.execute("COMMIT")
        #expect(try remainingIDs(db) == [open.id])
    }

    @Test func expiryRetiresExactlyTheOldReplicasThePrunePasses() throws {
        let db = try RegistryDatabase()
        let stale = try db.register("stale.pkg")  // synced 40 days ago
        let abandoned = try db.register("abandoned.pkg", schema: "field")  // registered 40 days ago, never synced
        let passed = try db.logChange()
        let recent = try db.register("recent.pkg", generation: try db.waitForXmin(atLeast: passed.txid + 1))  // synced an hour ago
        try db.registry().recordSync(replicaID: stale.id, syncID: "s-stale", generation: stale.extractionGeneration)
        try db.registry().recordSync(replicaID: recent.id, syncID: "s-recent", generation: recent.extractionGeneration)
        let later = try db.logChange()
        _ = try db.register("idle.pkg", generation: try db.waitForXmin(atLeast: later.txid + 1))  // 40 days unused, but at the newest position: holds nothing
        try db.psql("""
            UPDATE pkgbuild.replicas SET last_sync_at = now() - interval '40 days' WHERE name = 'stale.pkg';
            UPDATE pkgbuild.replicas SET created_at = now() - interval '40 days' WHERE name IN ('abandoned.pkg', 'idle.pkg');
            UPDATE pkgbuild.replicas SET last_sync_at = now() - interval '1 hour' WHERE name = 'recent.pkg'
            """)
        let lastUsed = try db.psql("SELECT to_char(last_sync_at AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.US\"Z\"') FROM pkgbuild.replicas WHERE name = 'stale.pkg'")

        let outcome = try LogPruning.prune(db.connection, expireAfterSeconds: 30 * 86_400, displayName: "test")
        #expect(Set(outcome.expired.map(\.id)) == [stale.id, abandoned.id])
        #expect(outcome.prunedBefore == recent.extractionGeneration && outcome.heldBy?.id == recent.id)
        #expect(try db.psql("SELECT name FROM pkgbuild.replicas ORDER BY name") == "idle.pkg\nrecent.pkg")
        #expect(try db.psql("SELECT name, source_schema FROM pkgbuild.retired_replicas ORDER BY name")
                == "abandoned.pkg|field\nstale.pkg|public")
        #expect(try db.psql("SELECT retired_by FROM pkgbuild.retired_replicas WHERE name = 'stale.pkg'")
                == "expired: unused since \(lastUsed); the change log was pruned past it")
        #expect(try db.psql("SELECT count(*) FROM pkgbuild.changes WHERE txid < '\(recent.extractionGeneration)'::xid8") == "0")

        // The stale package's next sync is refused as unregistered, with the reason.
        let standing = try db.registry().standing(of: PackageSyncHistory(
            replicaID: stale.id, lastSyncID: "s-stale", pendingSyncID: nil, generation: stale.extractionGeneration, recordsEverySync: true))
        guard case .refused(let refusal) = standing else { Issue.record("not refused: \(standing)"); return }
        #expect(refusal.reason == .unregistered && refusal.finding.contains("by expired: unused since \(lastUsed); the change log was pruned past it"))
    }

    /// A package read before a prune passed its position cannot register: its changes since are gone.
    @Test func aRegistrationBelowThePrunedBoundIsRefused() throws {
        let db = try RegistryDatabase()
        let readAt = try db.currentXmin()
        let change = try db.logChange()
        try db.waitForXmin(atLeast: change.txid + 1)
        let pruned = try LogPruning.prune(db.connection, expireAfterSeconds: nil, displayName: "test")
        #expect(pruned.prunedBefore > readAt)
        let refused = registryError { try db.register("late.pkg", generation: readAt) }
        #expect(refused?.message.contains("the change log was pruned before \(pruned.prunedBefore) meanwhile") == true, "\(String(describing: refused))")
        #expect(try db.psql("SELECT count(*) FROM pkgbuild.replicas") == "0")
        #expect(try db.register("fresh.pkg", generation: pruned.prunedBefore).state == .pending)
    }

    @Test(arguments: [("30d", 2_592_000), ("12h", 43_200), ("90m", 5_400), ("45s", 45), ("2w", 1_209_600)])
    func agesAsPeopleWriteThem(_ text: String, _ seconds: Int) {
        #expect(LogPruning.seconds(inAge: text) == seconds)
    }

    @Test(arguments: ["", "30", "d", "0d", "-3d", "1.5d", "30 days", "3y"])
    func agesThatAreNot(_ text: String) {
        #expect(LogPruning.seconds(inAge: text) == nil)
    }
}
