/// The replica registry of a GeoPackage source (its `pkgbuild_replicas` and companions, kept by
/// ``SourceGeodatabase``) and the conflicts each applied sync recorded there.
import Geodatabase
import PackageFormat
import SourceDrivers

extension GeoPackageSyncSource {
    public func standing(of package: PackageSyncHistory) throws -> ReplicaStanding {
        try geodatabase.standing(of: package)
    }

    public func replica(id: String) throws -> Replica? { try geodatabase.replica(id: id) }

    public func retiredReplica(id: String) throws -> RetiredReplica? { try geodatabase.retiredReplica(id: id) }

    @discardableResult
    public func registerReplica(_ registration: ReplicaRegistration) throws -> Replica {
        try geodatabase.registerReplica(registration)
    }

    public func activateReplica(id: String) throws { try geodatabase.activateReplica(id: id) }

    public func unregisterReplica(id: String, by retiredBy: String, successor: String?) throws {
        try geodatabase.unregisterReplica(id: id, by: retiredBy, successor: successor)
    }

    public func recordSuccessor(_ successor: String, ofRetired id: String) throws {
        try geodatabase.recordSuccessor(successor, ofRetired: id)
    }

    public func recordSync(replicaID: String, syncID: String, generation: Int64) throws {
        try geodatabase.recordSync(replicaID: replicaID, syncID: syncID, generation: generation)
    }

    public func noteRefusal(replicaID: String, syncID: String?, _ refusal: ReplicaStanding.Refusal) throws {
        try geodatabase.noteRefusal(replicaID: replicaID, syncID: syncID, refusal)
    }

    public func recordConflicts(_ conflicts: [Conflict], syncID: String) throws {
        try ConflictStore.recordAtSource(conflicts, syncID: syncID, in: connection)
    }

    public func conflicts(ofSync syncID: String) throws -> [Conflict] {
        try ConflictStore.recordedAtSource(syncID: syncID, in: connection)
    }
}
