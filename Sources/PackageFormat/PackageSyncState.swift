/// The sync state a package keeps inside `data.gpkg`, in the same transactions as its data:
/// the `pkgbuild_package` key/value rows `create` writes (``PackageMetadata``), of which sync
/// reads `replica_id`, `source`, `area_wkt`, `area_crs` and `sync_generation`, and to which it
/// adds `source_cursor` (the source driver's opaque position of its change log),
/// `pending_sync_id` and `pending_position` (the sync in flight, recorded and committed
/// before the source is touched), `last_sync_id` and `last_sync_at`.
import Foundation
import Geodatabase
import SQLite

/// One package's replica and sync state.
public struct PackageSyncState: Sendable, Hashable {
    public var replicaID: String
    /// The source generation the package's rows reflect.
    public var sourceGeneration: Int64
    /// The source's change-log position the package's rows reflect, as its driver wrote it;
    /// nil for a package from before cursors (its generation is the position).
    public var sourceCursor: String?
    /// The source the package was built from, as `create` recorded it.
    public var source: String?
    public var areaWKT: String?
    public var areaCRS: String?
    /// A sync that recorded itself but has not finished, nil between syncs.
    public var pendingSyncID: String?
    /// The change-log position that sync uploads through.
    public var pendingPosition: Int64?
    /// The last sync this package completed.
    public var lastSyncID: String?
    /// True when every sync of the package recorded its id at the source.
    public var recordsEverySync: Bool

    /// What the source's registry is asked about (see `ReplicaStanding`).
    public var history: PackageSyncHistory {
        PackageSyncHistory(replicaID: replicaID, lastSyncID: lastSyncID, pendingSyncID: pendingSyncID,
                           generation: sourceGeneration, recordsEverySync: recordsEverySync)
    }

    /// Reads the state.
    /// - Throws: ``PackageFormatError`` (`notAPackage`) for a GeoPackage without a replica id.
    public static func read(_ connection: Connection) throws -> PackageSyncState {
        let values = try PackageMetadata.values(in: connection)
        guard let replicaID = values["replica_id"], !replicaID.isEmpty else {
            throw PackageFormatError(.notAPackage, "\(connection.path) is not a package replica (no replica_id in pkgbuild_package); it was built with --no-register or not by pkgbuild create")
        }
        return PackageSyncState(replicaID: replicaID,
                                sourceGeneration: values["sync_generation"].flatMap { Int64($0) } ?? 0,
                                sourceCursor: values["source_cursor"],
                                source: values["source"], areaWKT: values["area_wkt"], areaCRS: values["area_crs"],
                                pendingSyncID: values["pending_sync_id"],
                                pendingPosition: values["pending_position"].flatMap { Int64($0) },
                                lastSyncID: values["last_sync_id"],
                                recordsEverySync: values[PackageMetadata.syncRecordsKey] == PackageMetadata.syncRecordsValue)
    }

    /// Records the sync about to start (in the caller's transaction).
    public static func begin(syncID: String, position: Int64, in connection: Connection) throws {
        try PackageMetadata.set(["pending_sync_id": syncID, "pending_position": String(position)], in: connection)
    }

    /// Forgets a pending sync that never reached the source (it stopped on conflicts).
    public static func abandon(in connection: Connection) throws {
        try PackageMetadata.set(["pending_sync_id": nil, "pending_position": nil], in: connection)
    }

    /// Ends the pending sync: the package reflects source generation `generation`, read at
    /// position `cursor`.
    public static func finish(syncID: String, generation: Int64, cursor: String?, in connection: Connection) throws {
        let now = ISO8601DateFormatter().string(from: Date())
        try PackageMetadata.set(["sync_generation": String(generation), "source_cursor": cursor,
                 "last_sync_id": syncID, "last_sync_at": now,
                 "pending_sync_id": nil, "pending_position": nil,
                 PackageMetadata.syncRecordsKey: PackageMetadata.syncRecordsValue], in: connection)
    }

    /// Takes the replica a re-attach registered: its id, generation, first sync id and the
    /// registered area, no sync pending (in the caller's transaction).
    public static func reattached(_ state: PackageSyncState, in connection: Connection) throws {
        try PackageMetadata.set(["replica_id": state.replicaID, "sync_generation": String(state.sourceGeneration),
                 "source_cursor": state.sourceCursor,
                 "last_sync_id": state.lastSyncID, "pending_sync_id": nil, "pending_position": nil,
                 "area_wkt": state.areaWKT, "area_crs": state.areaCRS,
                 PackageMetadata.syncRecordsKey: PackageMetadata.syncRecordsValue], in: connection)
    }
}
