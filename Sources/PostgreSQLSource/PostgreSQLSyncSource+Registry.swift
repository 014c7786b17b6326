/// The replica registry of a PostgreSQL source (``ReplicaRegistry``) behind the sync protocol.
import Geodatabase
import PackageFormat
import SourceDrivers

extension PostgreSQLSyncSource {
    /// In a write transaction the replica's row is locked first: two copies of one package
    /// syncing at once are decided one after the other, the second seeing the first's record
    /// (a stale copy), never both as current.
    public func standing(of package: PackageSyncHistory) throws -> ReplicaStanding {
        if writer != nil {
            _ = try connection.execute("SELECT 1 FROM pkgbuild.replicas WHERE replica_id = $1 FOR UPDATE", [.text(package.replicaID)])
        }
        return try registry.standing(of: package)
    }

    public func replica(id: String) throws -> Replica? { try registry.replica(id: id) }

    public func retiredReplica(id: String) throws -> RetiredReplica? { try registry.retiredReplica(id: id) }

    @discardableResult
    public func registerReplica(_ registration: ReplicaRegistration) throws -> Replica {
        try registry.registerReplica(registration)
    }

    public func activateReplica(id: String) throws { try registry.activateReplica(id: id) }

    public func unregisterReplica(id: String, by retiredBy: String, successor: String?) throws {
        try registry.unregisterReplica(id: id, by: retiredBy, successor: successor)
    }

    public func recordSuccessor(_ successor: String, ofRetired id: String) throws {
        try registry.recordSuccessor(successor, ofRetired: id)
    }

    public func recordSync(replicaID: String, syncID: String, generation: Int64) throws {
        try registry.recordSync(replicaID: replicaID, syncID: syncID, generation: generation)
    }

    public func noteRefusal(replicaID: String, syncID: String?, _ refusal: ReplicaStanding.Refusal) throws {
        try registry.noteRefusal(replicaID: replicaID, syncID: syncID, refusal)
    }

    public func recordConflicts(_ conflicts: [Conflict], syncID: String) throws {
        try registry.recordConflicts(conflicts, syncID: syncID)
    }

    public func conflicts(ofSync syncID: String) throws -> [Conflict] {
        try registry.conflicts(ofSync: syncID)
    }
}
