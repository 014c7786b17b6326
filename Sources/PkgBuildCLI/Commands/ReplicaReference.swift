import Foundation
import Geodatabase
import PackageFormat
import SQLite
import SourceDrivers

/// A replica as an administrator names it on the command line: its id (in any letter case,
/// braces optional), its package (the directory or its data.gpkg), or the name the registry
/// lists (the package directory's name, as `source replicas` shows it).
struct ReplicaReference {
    let given: String

    /// The registered replica `given` names, and the package path when a package was given.
    /// - Throws: ``GeodatabaseError`` (`notRegistered`) naming the input: nothing registered by
    ///   that id, package or name (saying when and by what it was unregistered, if it was), a
    ///   package never registered, or a name several replicas share.
    func resolve(at registry: any ReplicaAdministration, source: String) throws -> (replica: Replica, package: String?) {
        if let replica = try registry.replica(id: given) { return (replica, nil) }
        let replicas = try registry.replicas()
        if GlobalID.isWellFormed(given), let replica = replicas.first(where: { Self.sameID($0.id, given) }) {
            return (replica, nil)
        }
        if let id = try packageReplicaID() {
            guard let replica = try registry.replica(id: id) else {
                throw try notRegistered(id: id, at: registry, source: source, what: "package \(given) (replica \(id))")
            }
            return (replica, given)
        }
        let name = (given as NSString).lastPathComponent
        let named = replicas.filter { $0.name == name || $0.name == name + ".pkg" }
        if named.count > 1 {
            throw GeodatabaseError(.notRegistered, "\(source): \(named.count) replicas are named '\(name)' ("
                + named.map(\.id).joined(separator: ", ") + "); give the id of the one to unregister")
        }
        if let replica = named.first { return (replica, nil) }
        let retired = try registry.retiredReplicas().last { Self.sameID($0.id, given) || $0.name == name || $0.name == name + ".pkg" }
        throw try notRegistered(id: retired?.id ?? given, at: registry, source: source, what: "'\(given)'")
    }

    /// The replica id a package records, nil when `given` is not a package.
    /// - Throws: ``GeodatabaseError`` for a package built without registering at a source.
    private func packageReplicaID() throws -> String? {
        // Only data.gpkg says which replica a package is: a damaged manifest must not make a
        // package look like a name.
        guard let files = try? PackageFiles(URL(fileURLWithPath: given), expecting: .editing),
              FileManager.default.isReadableFile(atPath: files.data.path),
              let connection = try? Connection(path: files.data.path, mode: .readOnly),
              let values = try? PackageMetadata.values(in: connection), !values.isEmpty else { return nil }
        guard let id = values["replica_id"], !id.isEmpty else {
            throw GeodatabaseError(.notRegistered, "package \(given) has no replica at any source (built with --no-register)")
        }
        return id
    }

    private func notRegistered(id: String, at registry: any ReplicaAdministration, source: String, what: String) throws -> GeodatabaseError {
        if let retired = try registry.retiredReplica(id: id) {
            return GeodatabaseError(.notRegistered, "\(source): replica \(retired.id)\(retired.name.map { " (\($0))" } ?? "") "
                + "was already unregistered on \(retired.retiredAt) by \(retired.retiredBy)")
        }
        return GeodatabaseError(.notRegistered, "\(source) has no replica \(what): give a replica id, a package directory, "
            + "or a NAME that 'pkgbuild source replicas \(source)' lists")
    }

    /// Ids compared as people type them: any letter case, braces optional.
    static func sameID(_ a: String, _ b: String) -> Bool {
        func bare(_ s: String) -> String { s.trimmingCharacters(in: CharacterSet(charactersIn: "{}")).uppercased() }
        return bare(a) == bare(b)
    }
}
