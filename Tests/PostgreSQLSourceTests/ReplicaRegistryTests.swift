import Foundation
@testable import Geodatabase
import PostgreSQL
@testable import PostgreSQLSource
import Testing
import TestSupport

/// The PostgreSQL replica registry against a real database, judged by psql: the life of a
/// replica, each case of ReplicaStanding.decide, schemas kept apart, and refusals that outlive
/// the refused sync.
@Suite(registryNeedsCluster)
struct ReplicaRegistryTests {
    @Test func aReplicaIsRegisteredPendingThenActiveAsPsqlSeesIt() throws {
        let db = try RegistryDatabase()
        let generation = try db.currentXmin()
        let replica = try db.register("denali.pkg", generation: generation)
        #expect(replica.state == .pending && replica.extractionGeneration == generation && replica.syncGeneration == generation)
        #expect(replica.layers == ["parks"] && replica.optionsJSON == #"{"clip":false}"# && replica.lastSyncAt == nil)
        #expect(try db.psql("SELECT source_schema, name, state, extraction_generation, layers FROM pkgbuild.replicas")
                == "public|denali.pkg|pending|\(generation)|[\"parks\"]")
        // Text in UTC with microseconds, the same instant psql reads.
        #expect(replica.createdAt.range(of: #"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$"#, options: .regularExpression) != nil)
        #expect(try db.psql("SELECT to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.US\"Z\"') FROM pkgbuild.replicas")
                == replica.createdAt)
        try db.registry().activateReplica(id: replica.id)
        #expect(try db.psql("SELECT state FROM pkgbuild.replicas") == "active")
        #expect(try db.registry().replicas().map(\.id) == [replica.id])
        #expect(try db.registry().replica(id: replica.id)?.state == .active)
    }

    @Test func refusalsOfRegistrationNameTheProblem() throws {
        let db = try RegistryDatabase()
        let replica = try db.register("denali.pkg")
        let again = registryError { try db.registry().registerReplica(ReplicaRegistration(id: replica.id, generation: 1, layers: [])) }
        #expect(again?.kind == .invalidArgument && again?.message.hasSuffix("replica \(replica.id) is already registered") == true)
        let options = registryError { try db.registry().registerReplica(ReplicaRegistration(generation: 1, layers: [], optionsJSON: "[1]")) }
        #expect(options?.message == "replica options are not a JSON object: [1]")
        let unknown = registryError { try db.registry().activateReplica(id: "{nobody}") }
        #expect(unknown?.kind == .notRegistered && unknown?.message.hasSuffix("no replica {nobody} is registered") == true)
        #expect(try db.psql("SELECT count(*) FROM pkgbuild.replicas") == "1")
    }

    @Test func recordSyncAdvancesTheReplicaAndRefusesASyncTwice() throws {
        let db = try RegistryDatabase()
        let replica = try db.register("denali.pkg")
        let later = try db.currentXmin() + 5
        try db.connection.withTransaction { try db.registry().recordSync(replicaID: replica.id, syncID: "s1", generation: later) }
        let synced = try #require(try db.registry().replica(id: replica.id))
        #expect(synced.syncGeneration == later && synced.lastSyncID == "s1" && synced.lastSyncAt != nil)
        #expect(try db.psql("SELECT replica_id, generation FROM pkgbuild.replica_syncs") == "\(replica.id)|\(later)")
        let twice = registryError { try db.registry().recordSync(replicaID: replica.id, syncID: "s1", generation: later) }
        #expect(twice?.kind == .invalidArgument && twice?.message.hasSuffix("sync s1 was already applied") == true)
        let unknown = registryError { try db.registry().recordSync(replicaID: "{gone}", syncID: "s2", generation: later) }
        #expect(unknown?.kind == .notRegistered)
        #expect(try db.psql("SELECT count(*) FROM pkgbuild.replica_syncs") == "1")
    }

    @Test func standingTakesEachCaseOfTheDecision() throws {
        let db = try RegistryDatabase()
        let registry = db.registry()
        let replica = try db.register("denali.pkg")
        let g = replica.extractionGeneration
        func standing(last: String? = nil, pending: String? = nil, generation: Int64? = nil, id: String? = nil,
                      everySync: Bool = true) throws -> ReplicaStanding {
            try registry.standing(of: PackageSyncHistory(replicaID: id ?? replica.id, lastSyncID: last, pendingSyncID: pending,
                                                         generation: generation ?? g, recordsEverySync: everySync))
        }
        func reason(_ standing: ReplicaStanding) -> ReplicaStanding.Refusal.Reason? {
            if case .refused(let refusal) = standing { return refusal.reason }
            return nil
        }
        #expect(try standing() == .current)
        try registry.recordSync(replicaID: replica.id, syncID: "s1", generation: g)
        #expect(try standing(last: "s1") == .current)
        #expect(try standing(last: nil, pending: "s1") == .resuming)  // committed at the source, not in the package
        #expect(reason(try standing(last: nil)) == .staleCopy)
        try registry.recordSync(replicaID: replica.id, syncID: "s2", generation: g)
        #expect(reason(try standing(last: "s1", pending: "s1")) == .staleCopy)
        #expect(reason(try standing(last: "s-never")) == .restoredSource)
        // A generation above the current snapshot's xmin was never issued by this database.
        let above = try db.currentXmin() + 1_000
        let restored = try standing(last: "s2", generation: above)
        #expect(reason(restored) == .restoredSource)
        if case .refused(let refusal) = restored { #expect(refusal.finding.contains("generation \(above)")) }
        #expect(try standing(last: "s-never", everySync: false) == .current)
        #expect(reason(try standing(id: "{someone-else}")) == .unknownReplica)
        try registry.unregisterReplica(id: replica.id, by: "pkgbuild source unregister", successor: "{next}")
        let gone = try standing(last: "s2")
        #expect(reason(gone) == .unregistered)
        if case .refused(let refusal) = gone {
            #expect(refusal.finding.contains("by pkgbuild source unregister (replaced by replica {next})"), "\(refusal.finding)")
        }
    }

    @Test func unregisterMovesTheRegistrationAndKeepsItsSyncs() throws {
        let db = try RegistryDatabase()
        let registry = db.registry()
        let replica = try db.register("denali.pkg")
        try registry.recordSync(replicaID: replica.id, syncID: "s1", generation: replica.extractionGeneration)
        try registry.unregisterReplica(id: replica.id, by: "pkgbuild source unregister", successor: nil)
        #expect(try db.psql("SELECT count(*) FROM pkgbuild.replicas") == "0")
        #expect(try db.psql("SELECT count(*) FROM pkgbuild.replica_syncs") == "1")
        #expect(try db.psql("SELECT source_schema, name, area_wkt, layers, retired_by, successor_id IS NULL FROM pkgbuild.retired_replicas")
                == "public|denali.pkg|POINT (1 2)|[\"parks\"]|pkgbuild source unregister|t")
        let retired = try #require(try registry.retiredReplica(id: replica.id))
        #expect(retired.layers == ["parks"] && retired.optionsJSON == #"{"clip":false}"# && retired.areaCRS == "EPSG:4326")
        // The first successor stays.
        try registry.recordSuccessor("{first}", ofRetired: replica.id)
        try registry.recordSuccessor("{second}", ofRetired: replica.id)
        #expect(try registry.retiredReplica(id: replica.id)?.successorID == "{first}")
        #expect(try registry.retiredReplicas().map(\.id) == [replica.id])
        #expect(registryError { try registry.unregisterReplica(id: replica.id, by: "again", successor: nil) }?.kind == .notRegistered)
    }

    @Test func aRegistryOfOneSchemaSeesOnlyItsReplicas() throws {
        let db = try RegistryDatabase()
        let park = try db.register("denali.pkg", schema: "public")
        let plot = try db.register("plots.pkg", schema: "field")
        #expect(try db.registry("public").replicas().map(\.id) == [park.id])
        #expect(try db.registry("field").replicas().map(\.id) == [plot.id])
        #expect(try db.registry("field").replica(id: park.id) == nil)
        #expect(registryError { try db.registry("field").unregisterReplica(id: park.id, by: "x", successor: nil) }?.kind == .notRegistered)
        try db.registry("public").unregisterReplica(id: park.id, by: "pkgbuild source unregister", successor: nil)
        try db.registry("public").noteRefusal(replicaID: park.id, syncID: nil,
                                              ReplicaStanding.Refusal(reason: .unregistered, finding: "gone"))
        #expect(try db.registry("field").retiredReplicas().isEmpty && db.registry("field").refusals().isEmpty)
        #expect(try db.registry("field").retiredReplica(id: park.id) == nil)
        #expect(try db.registry("public").retiredReplicas().map(\.id) == [park.id])
        #expect(try db.psql("SELECT source_schema FROM pkgbuild.sync_refusals") == "public")
    }

    /// A refusal noted while a sync's transaction is open outlives its rollback.
    @Test func aRefusalNoteOutlivesTheSyncTransaction() throws {
        let db = try RegistryDatabase()
        let registry = db.registry()
        let replica = try db.register("denali.pkg")
        struct Refused: Error {}
        #expect(throws: Refused.self) {
            try db.connection.withTransaction(.repeatableRead) {
                try registry.noteRefusal(replicaID: replica.id, syncID: "s9",
                                         ReplicaStanding.Refusal(reason: .staleCopy, finding: "first"))
                throw Refused()
            }
        }
        try registry.noteRefusal(replicaID: replica.id, syncID: nil, ReplicaStanding.Refusal(reason: .restoredSource, finding: "second"))
        #expect(try db.psql("SELECT sync_id, reason FROM pkgbuild.sync_refusals ORDER BY id") == "s9|stale-copy\n|restored-source")
        let notes = try registry.refusals()
        #expect(notes.map(\.reason) == ["restored-source", "stale-copy"])  // newest first
        #expect(notes.last?.message == ReplicaStanding.Refusal(reason: .staleCopy, finding: "first").message)
        #expect(notes.allSatisfy { $0.refusedAt.hasSuffix("Z") && $0.replicaID == replica.id })
    }

    /// Every registry call runs in the caller's transaction: its rollback undoes them.
    @Test func registryWritesGoWithTheCallersRollback() throws {
        let db = try RegistryDatabase()
        struct Stop: Error {}
        #expect(throws: Stop.self) {
            try db.connection.withTransaction(.repeatableRead) {
                let replica = try db.register("denali.pkg")
                try db.registry().recordSync(replicaID: replica.id, syncID: "s1", generation: replica.extractionGeneration)
                throw Stop()
            }
        }
        #expect(try db.psql("SELECT (SELECT count(*) FROM pkgbuild.replicas) + (SELECT count(*) FROM pkgbuild.replica_syncs)") == "0")
    }
}

/// The registry's error thrown by `body`, as a GeodatabaseError; an issue when it throws none or another.
func registryError(_ body: () throws -> Any, sourceLocation: SourceLocation = #_sourceLocation) -> GeodatabaseError? {
    do {
        _ = try body()
        Issue.record("expected a GeodatabaseError, nothing was thrown", sourceLocation: sourceLocation)
    } catch let error as GeodatabaseError {
        return error
    } catch {
        Issue.record("expected a GeodatabaseError, got \(error)", sourceLocation: sourceLocation)
    }
    return nil
}
