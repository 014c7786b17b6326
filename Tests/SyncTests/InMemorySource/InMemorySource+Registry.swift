/// The replica registry of the in-memory source: replicas, retired replicas, the syncs applied
/// and the refusals noted, and the conflicts each applied sync recorded. Whether a package may
/// sync is decided by the same ``ReplicaStanding/decide`` the GeoPackage driver uses.
import Foundation
@testable import Geodatabase
import PackageFormat
import SourceDrivers

/// The registry's records, part of the source's state (so a rollback undoes them too).
struct InMemoryRegistry: Sendable {
    /// In registration order.
    var replicas: [Replica] = []
    var retired: [String: RetiredReplica] = [:]
    /// Sync id → the replica and generation it was recorded with.
    var syncs: [String: (replicaID: String, generation: Int64)] = [:]
    /// Newest last.
    var refusals: [SyncRefusalNote] = []
    var conflicts: [String: [Conflict]] = [:]
}

extension InMemorySource {
    func standing(of package: PackageSyncHistory) throws -> ReplicaStanding {
        let replica = try replica(id: package.replicaID)
        return ReplicaStanding.decide(package: package, registered: replica != nil,
                                      retired: replica == nil ? state.registry.retired[package.replicaID] : nil,
                                      newestSyncID: replica?.lastSyncID,
                                      isRecorded: { state.registry.syncs[$0] != nil },
                                      sourceGeneration: state.generation)
    }

    func replica(id: String) throws -> Replica? { state.registry.replicas.first { $0.id == id } }

    func retiredReplica(id: String) throws -> RetiredReplica? { state.registry.retired[id] }

    @discardableResult
    func registerReplica(_ registration: ReplicaRegistration) throws -> Replica {
        try requireWritable("a registry write")
        if try replica(id: registration.id) != nil {
            throw GeodatabaseError(.invalidArgument, "\(displayName): replica \(registration.id) is already registered")
        }
        let replica = Replica(id: registration.id, name: registration.name, state: .pending,
                              extractionGeneration: registration.generation, syncGeneration: registration.generation,
                              areaWKT: registration.areaWKT, areaCRS: registration.areaCRS, layers: registration.layers,
                              optionsJSON: registration.optionsJSON, createdAt: Self.now(), lastSyncAt: nil, lastSyncID: nil)
        state.registry.replicas.append(replica)
        return replica
    }

    func activateReplica(id: String) throws {
        try requireWritable("a registry write")
        try updateReplica(id) { $0.state = .active }
    }

    func unregisterReplica(id: String, by retiredBy: String, successor: String?) throws {
        try requireWritable("a registry write")
        let replica = try requireReplica(id)
        state.registry.retired[id] = RetiredReplica(id: id, name: replica.name, areaWKT: replica.areaWKT, areaCRS: replica.areaCRS,
                                                    layers: replica.layers, optionsJSON: replica.optionsJSON,
                                                    retiredAt: Self.now(), retiredBy: retiredBy, successorID: successor)
        state.registry.replicas.removeAll { $0.id == id }
    }

    /// The first successor stays, as at a GeoPackage source.
    func recordSuccessor(_ successor: String, ofRetired id: String) throws {
        try requireWritable("a registry write")
        guard state.registry.retired[id] != nil, state.registry.retired[id]?.successorID == nil else { return }
        state.registry.retired[id]?.successorID = successor
    }

    func recordSync(replicaID: String, syncID: String, generation: Int64) throws {
        try requireWritable("a registry write")
        _ = try requireReplica(replicaID)
        if state.registry.syncs[syncID] != nil {
            throw GeodatabaseError(.invalidArgument, "\(displayName): sync \(syncID) was already applied")
        }
        state.registry.syncs[syncID] = (replicaID, generation)
        try updateReplica(replicaID) {
            $0.syncGeneration = generation
            $0.lastSyncID = syncID
            $0.lastSyncAt = Self.now()
        }
    }

    /// Outside any sync transaction, as the protocol says: a note made inside one would go
    /// with its rollback.
    func noteRefusal(replicaID: String, syncID: String?, _ refusal: ReplicaStanding.Refusal) throws {
        if isInTransaction { throw InMemorySourceError("\(displayName): a refusal noted inside a transaction") }
        state.registry.refusals.append(SyncRefusalNote(replicaID: replicaID, syncID: syncID, reason: refusal.reason.rawValue,
                                                       message: refusal.message, refusedAt: Self.now()))
    }

    func recordConflicts(_ conflicts: [Conflict], syncID: String) throws {
        try requireWritable("a registry write")
        guard !conflicts.isEmpty else { return }
        state.registry.conflicts[syncID, default: []] += conflicts
    }

    func conflicts(ofSync syncID: String) throws -> [Conflict] { state.registry.conflicts[syncID] ?? [] }

    private func requireReplica(_ id: String) throws -> Replica {
        guard let replica = try replica(id: id) else {
            throw GeodatabaseError(.notRegistered, "\(displayName): no replica \(id) is registered")
        }
        return replica
    }

    private func updateReplica(_ id: String, _ change: (inout Replica) -> Void) throws {
        guard let index = state.registry.replicas.firstIndex(where: { $0.id == id }) else {
            throw GeodatabaseError(.notRegistered, "\(displayName): no replica \(id) is registered")
        }
        change(&state.registry.replicas[index])
    }

    static func now() -> String { ISO8601DateFormatter().string(from: Date()) }
}
