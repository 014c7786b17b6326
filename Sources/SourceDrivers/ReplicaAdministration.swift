/// What the administrator's verbs (`pkgbuild source replicas`, `status`, `unregister`) ask of a
/// source's replica registry, whatever the backend: the lists, one replica by id, retiring one.
import Geodatabase

/// A source's replica registry, as an administrator looks at it.
///
/// - Important: One owner at a time, as the source's connection.
public protocol ReplicaAdministration: AnyObject {
    /// Every registered replica, oldest first.
    func replicas() throws -> [Replica]
    /// Every retired replica, oldest retirement first.
    func retiredReplicas() throws -> [RetiredReplica]
    /// The refused syncs noted, newest first.
    func refusals() throws -> [SyncRefusalNote]
    /// The replica of that id (as stored), or nil.
    func replica(id: String) throws -> Replica?
    /// The retired replica of that id (as stored), nil when it was never retired.
    func retiredReplica(id: String) throws -> RetiredReplica?
    /// Retires a registered replica (`by`: what retired it, for people).
    func unregisterReplica(id: String, by retiredBy: String, successor: String?) throws
}
