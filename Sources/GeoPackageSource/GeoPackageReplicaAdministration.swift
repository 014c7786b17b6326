/// A GeoPackage source's replica registry for the administrator's verbs: ``SourceGeodatabase``'s.
import Geodatabase
import SourceDrivers

/// The registry of a source GeoPackage, as `source replicas`, `status` and `unregister` use it.
public final class GeoPackageReplicaAdministration: ReplicaAdministration {
    public let geodatabase: SourceGeodatabase

    public init(_ geodatabase: SourceGeodatabase) { self.geodatabase = geodatabase }

    public func replicas() throws -> [Replica] { try geodatabase.replicas() }
    public func retiredReplicas() throws -> [RetiredReplica] { try geodatabase.retiredReplicas() }
    public func refusals() throws -> [SyncRefusalNote] { try geodatabase.refusals() }
    public func replica(id: String) throws -> Replica? { try geodatabase.replica(id: id) }
    public func retiredReplica(id: String) throws -> RetiredReplica? { try geodatabase.retiredReplica(id: id) }

    public func unregisterReplica(id: String, by retiredBy: String, successor: String?) throws {
        try geodatabase.unregisterReplica(id: id, by: retiredBy, successor: successor)
    }
}
