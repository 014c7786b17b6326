import Foundation
import Geodatabase
import PackageFormat
import SourceDrivers

/// Replica registration: a package built to sync is registered at its source as pending
/// before it is renamed into place and made active after, so that a crash between the two
/// leaves a replica `source status` shows as pending, never a silent orphan; a replica an
/// interrupted run left pending is retired when its work is redone. The replica registry is
/// the source's sync side, opened through its driver (``SourceRegistry``).
extension Extractor {
    /// A replica this run registered, until its package is in place.
    struct RegisteredReplica {
        var source: any SyncSource
        var id: String
    }

    /// Before the source is read: its change-log triggers must watch every column the package
    /// will hold (a column added since `source enable` was not), or office edits of it would
    /// never reach the package.
    static func refreshSourceTriggers(_ path: String) throws {
        do {
            try SourceRegistry.shared.openSyncSource(path, options: SourceOpenOptions(busyTimeout: 5)).refreshTracking()
        } catch let error as SourceError where error.kind == .notEnabled {
            return  // nothing watches its changes, so nothing is to be brought up to date
        } catch {
            throw ExtractError(.registration, "cannot bring the change-log triggers of \(path) up to date: \(error)")
        }
    }

    /// Registers the replica as pending, once the package directory has recorded it (so that
    /// a re-run can find the replica if this run stops before the package is in place).
    /// - Throws: `ExtractError(.registration)` when the source cannot be opened or refuses it.
    static func registerPending(_ id: String, _ prepared: Prepared, manifest: PackageManifest,
                                directory: PackageDirectory, output: URL) throws -> RegisteredReplica {
        let request = prepared.request
        let source: any SyncSource
        do { source = try SourceRegistry.shared.openSyncSource(request.source, options: SourceOpenOptions(busyTimeout: 5)) } catch {
            throw ExtractError(.registration, "cannot open \(request.source) to register the replica: \(error)")
        }
        try directory.recordPendingReplica(id: id, source: request.source)
        do {
            try source.registerReplica(ReplicaRegistration(
                id: id, name: output.lastPathComponent, generation: manifest.source.generation ?? 0,
                areaWKT: manifest.area.wkt, areaCRS: manifest.area.crs, layers: prepared.plans.map(\.name),
                optionsJSON: try registrationOptions(request)))
        } catch {
            throw ExtractError(.registration, "cannot register the replica at \(request.source): \(error)")
        }
        return RegisteredReplica(source: source, id: id)
    }

    /// Makes the replica of a package now in place active. Returns a warning when the source
    /// refuses: the package is complete all the same.
    static func activate(_ replica: RegisteredReplica) -> [String] {
        do { try replica.source.activateReplica(id: replica.id) } catch {
            return ["the package is complete but replica \(replica.id) stays pending at the source: \(error)"]
        }
        return []
    }

    /// Unregisters the replica of a build that failed: its package will not exist, and a
    /// pending replica would only mislead.
    static func unregisterFailed(_ replica: RegisteredReplica) {
        try? replica.source.unregisterReplica(id: replica.id, by: "pkgbuild create (the build failed)", successor: nil)
    }

    /// Unregisters the replica an interrupted run registered, when it is still pending (its
    /// package never reached its final name, and the work it left is being redone or thrown
    /// away). Returns warnings: what was done, or why the replica stays pending.
    static func discardAbandoned(_ abandoned: PackageDirectory.PendingReplica) -> [String] {
        do {
            let source = try SourceRegistry.shared.openSyncSource(abandoned.source, options: SourceOpenOptions(busyTimeout: 10))
            guard let replica = try source.replica(id: abandoned.id), replica.state == .pending else { return [] }
            try source.unregisterReplica(id: abandoned.id, by: "pkgbuild create (an interrupted build, redone)", successor: nil)
            return ["unregistered replica \(abandoned.id) from \(abandoned.source): an interrupted run registered it "
                + "and never completed its package"]
        } catch {
            return ["replica \(abandoned.id) registered by an interrupted run stays pending at \(abandoned.source) "
                + "(\(error)); remove it with 'pkgbuild source unregister \(abandoned.source) \(abandoned.id)'"]
        }
    }

    /// The options a replica is registered with (JSON object), for sync to know how it was cut.
    static func registrationOptions(_ request: ExtractRequest) throws -> String {
        var options: [String: String] = ["clip": "\(request.clip)", "related": "\(request.includeRelated)"]
        if let crs = request.crs { options["crs"] = crs }
        for filter in request.filters { options["where:\(filter.layer)"] = filter.expression }
        if !request.schemaOnly.isEmpty { options["schema_only"] = request.schemaOnly.joined(separator: ",") }
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return String(decoding: try encoder.encode(options), as: UTF8.self)
    }
}
