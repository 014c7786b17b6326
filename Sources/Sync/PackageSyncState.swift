/// The sync state a package keeps inside `data.gpkg`, in the same transactions as its data:
/// the `pkgbuild_package` key/value rows `create` writes (``PackageMetadata``), of which sync
/// reads `replica_id`, `source`, `area_wkt`, `area_crs` and `sync_generation`, and to which it
/// adds `pending_sync_id` and `pending_position` (the sync in flight, recorded and committed
/// before the source is touched), `last_sync_id` and `last_sync_at`.
import Extract
import Foundation
import Geodatabase
import SQLite

/// One package's replica and sync state.
struct PackageSyncState: Sendable, Hashable {
    var replicaID: String
    /// The source generation the package's rows reflect.
    var sourceGeneration: Int64
    /// The source the package was built from, as `create` recorded it.
    var source: String?
    var areaWKT: String?
    var areaCRS: String?
    /// A sync that recorded itself but has not finished, nil between syncs.
    var pendingSyncID: String?
    /// The change-log position that sync uploads through.
    var pendingPosition: Int64?
    /// The last sync this package completed.
    var lastSyncID: String?
    /// True when every sync of the package recorded its id at the source.
    var recordsEverySync: Bool

    /// What the source's registry is asked about (see `ReplicaStanding`).
    var history: PackageSyncHistory {
        PackageSyncHistory(replicaID: replicaID, lastSyncID: lastSyncID, pendingSyncID: pendingSyncID,
                           generation: sourceGeneration, recordsEverySync: recordsEverySync)
    }

    /// Reads the state.
    /// - Throws: ``SyncError`` (`notAPackage`) for a GeoPackage without a replica id.
    static func read(_ connection: Connection) throws -> PackageSyncState {
        let values = try PackageMetadata.values(in: connection)
        guard let replicaID = values["replica_id"], !replicaID.isEmpty else {
            throw SyncError(.notAPackage, "\(connection.path) is not a package replica (no replica_id in pkgbuild_package); it was built with --no-register or not by pkgbuild create")
        }
        return PackageSyncState(replicaID: replicaID,
                                sourceGeneration: values["sync_generation"].flatMap { Int64($0) } ?? 0,
                                source: values["source"], areaWKT: values["area_wkt"], areaCRS: values["area_crs"],
                                pendingSyncID: values["pending_sync_id"],
                                pendingPosition: values["pending_position"].flatMap { Int64($0) },
                                lastSyncID: values["last_sync_id"],
                                recordsEverySync: values[PackageMetadata.syncRecordsKey] == PackageMetadata.syncRecordsValue)
    }

    /// Records the sync about to start (in the caller's transaction).
    static func begin(syncID: String, position: Int64, in connection: Connection) throws {
        try set(["pending_sync_id": syncID, "pending_position": String(position)], in: connection)
    }

    /// Forgets a pending sync that never reached the source (it stopped on conflicts).
    static func abandon(in connection: Connection) throws {
        try set(["pending_sync_id": nil, "pending_position": nil], in: connection)
    }

    /// Ends the pending sync: the package reflects source generation `generation`.
    static func finish(syncID: String, generation: Int64, in connection: Connection) throws {
        let now = ISO8601DateFormatter().string(from: Date())
        try set(["sync_generation": String(generation), "last_sync_id": syncID, "last_sync_at": now,
                 "pending_sync_id": nil, "pending_position": nil,
                 PackageMetadata.syncRecordsKey: PackageMetadata.syncRecordsValue], in: connection)
    }

    /// Takes the replica a re-attach registered: its id, generation, first sync id and the
    /// registered area, no sync pending (in the caller's transaction).
    static func reattached(_ state: PackageSyncState, in connection: Connection) throws {
        try set(["replica_id": state.replicaID, "sync_generation": String(state.sourceGeneration),
                 "last_sync_id": state.lastSyncID, "pending_sync_id": nil, "pending_position": nil,
                 "area_wkt": state.areaWKT, "area_crs": state.areaCRS,
                 PackageMetadata.syncRecordsKey: PackageMetadata.syncRecordsValue], in: connection)
    }

    private static func set(_ values: [String: String?], in connection: Connection) throws {
        for (key, value) in values.sorted(by: { $0.key < $1.key }) {
            if let value {
                try connection.execute("INSERT OR REPLACE INTO pkgbuild_package (key, value) VALUES (?, ?)", [.text(key), .text(value)])
            } else {
                try connection.execute("DELETE FROM pkgbuild_package WHERE key = ?", [.text(key)])
            }
        }
    }
}
