import Foundation
import Geodatabase
import PackageFormat
import SQLite

extension PackageInspector {
    /// The replica and sync state kept in data.gpkg: `pkgbuild_package` (written by create,
    /// kept by sync: `pending_sync_id` is set and committed before a sync touches the source
    /// and removed when it finishes) and `pkgbuild_conflicts` (status `open`, with a `decision`
    /// once `resolve` chose a side for the next sync).
    static func readReplica(_ db: Connection, warnings: inout [PackageInspection.Warning]) throws -> PackageInspection.Replica {
        let values = try PackageMetadata.values(in: db)
        var replica = PackageInspection.Replica(
            id: values["replica_id"].flatMap { $0.isEmpty ? nil : $0 },
            extractionGeneration: values["extraction_generation"].flatMap { Int64($0) },
            syncGeneration: values["sync_generation"].flatMap { Int64($0) },
            pendingSyncID: values["pending_sync_id"], lastSyncID: values["last_sync_id"], lastSyncAt: values["last_sync_at"],
            openConflicts: 0, unresolvedConflicts: 0)
        if try tableExists("pkgbuild_conflicts", in: db) {
            let row = try db.query("""
                SELECT count(*), CAST(total(decision IS NULL) AS INTEGER) FROM pkgbuild_conflicts WHERE status = 'open'
                """).first
            replica.openConflicts = Int(row?[0].int64Value ?? 0)
            replica.unresolvedConflicts = Int(row?[1].int64Value ?? 0)
        }
        if let pending = replica.pendingSyncID {
            warnings.append(.init(.pendingSync, "sync \(pending) was recorded but did not finish; run `pkgbuild sync` again "
                + "to complete it (the source tells whether it was applied)"))
        }
        if replica.unresolvedConflicts > 0 {
            let n = replica.unresolvedConflicts
            warnings.append(.init(.unresolvedConflicts, "\(n) unresolved conflict\(n == 1 ? "" : "s") from the last sync; "
                + "see `pkgbuild conflicts` and `pkgbuild resolve`"))
        }
        return replica
    }

    /// manifest.json describes the package as built: it must name the replica data.gpkg holds
    /// and the layers it has, each with the same CRS and geometry type.
    static func checkManifest(_ manifest: PackageManifest, layers: [PackageInspection.Layer], replicaID: String?,
                              warnings: inout [PackageInspection.Warning]) {
        let described = manifest.replicaID.isEmpty ? nil : manifest.replicaID
        if described != replicaID {
            warnings.append(.init(.manifestReplica, "manifest.json names replica \(described ?? "(none)") "
                + "but data.gpkg holds replica \(replicaID ?? "(none)")"))
        }
        let live = Dictionary(layers.map { (SQLName($0.name), $0) }, uniquingKeysWith: { a, _ in a })
        let built = Dictionary(manifest.layers.map { (SQLName($0.name), $0) }, uniquingKeysWith: { a, _ in a })
        let missing = manifest.layers.filter { live[SQLName($0.name)] == nil }.map(\.name)
        let extra = layers.filter { built[SQLName($0.name)] == nil }.map(\.name)
        if !missing.isEmpty {
            warnings.append(.init(.manifestLayers, "manifest.json lists layer\(missing.count == 1 ? "" : "s") "
                + "\(missing.joined(separator: ", ")) that data.gpkg does not have"))
        }
        if !extra.isEmpty {
            warnings.append(.init(.manifestLayers, "data.gpkg has layer\(extra.count == 1 ? "" : "s") "
                + "\(extra.joined(separator: ", ")) that manifest.json does not list"))
        }
        for layer in manifest.layers {
            guard let now = live[SQLName(layer.name)] else { continue }
            if let crs = layer.crs, let nowCRS = now.crs, crs != nowCRS {
                warnings.append(.init(.manifestLayers, "layer \(layer.name): manifest.json says CRS \(crs), data.gpkg has \(nowCRS)"))
            }
            if let type = layer.geometryType, let nowType = now.geometryType, type.uppercased() != nowType.uppercased() {
                warnings.append(.init(.manifestLayers, "layer \(layer.name): manifest.json says geometry type \(type), data.gpkg has \(nowType)"))
            }
        }
    }

    /// The replica's standing at its source, when the source is a local file that can be read
    /// from here; nil otherwise (a package usually travels without its source): the registry's
    /// state (`active`, `pending`) when the package may sync, `resuming` when the source
    /// applied a sync the package has not finished, else why a sync would be refused
    /// (`stale-copy`, `restored-source`, `unregistered`, `unknown-replica`), with a warning.
    /// - Parameter package: the package's path, for the way out a refusal names.
    static func sourceRegistration(of replicaID: String, values: [String: String], source: PackageManifest.Source,
                                   package: String, warnings: inout [PackageInspection.Warning]) -> String? {
        guard source.kind == "geopackage", FileManager.default.isReadableFile(atPath: source.location),
              let db = try? Connection(path: source.location, mode: .readOnly) else { return nil }
        let registry = SourceGeodatabase(connection: db)
        guard (try? registry.isEnabled()) == true else { return nil }
        let history = PackageSyncHistory(replicaID: replicaID, lastSyncID: values["last_sync_id"],
                                         pendingSyncID: values["pending_sync_id"],
                                         generation: values["sync_generation"].flatMap { Int64($0) } ?? 0,
                                         recordsEverySync: values[PackageMetadata.syncRecordsKey] == PackageMetadata.syncRecordsValue)
        let standing: ReplicaStanding
        do { standing = try registry.standing(of: history) } catch { return nil }
        switch standing {
        case .resuming: return "resuming"
        case .current:
            let state = (try? registry.replica(id: replicaID))?.state.rawValue
            if state == "pending" {
                warnings.append(.init(.replicaRegistration, "the source \(source.location) lists replica \(replicaID) as pending: "
                    + "the build that made it stopped before activating it"))
            }
            return state
        case .refused(let refusal):
            warnings.append(.init(.replicaRegistration, "a sync with \(source.location) would be refused: \(refusal.message(package: package))"))
            return refusal.reason.rawValue
        }
    }
}
