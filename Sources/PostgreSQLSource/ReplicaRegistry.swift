/// The replica registry of a PostgreSQL source (`pkgbuild.replicas` and companions, see
/// ``TrackingSchema``), as a GeoPackage source keeps it (`SourceGeodatabase+Replicas`): the
/// same states, records and error texts. Generations are snapshot xmins
/// (`pg_snapshot_xmin(pg_current_snapshot())`): every transaction below one has finished, and
/// it never decreases, so a package generation above the current one was issued by a later
/// state of the database than this one (a restored source).
///
/// The registry is shared by every tracked schema of the database; a registry opened for one
/// schema (`source_schema`) sees only its replicas, their retirements and refusals. Every
/// method runs in the transaction the caller has open (sync opens them), except
/// ``noteRefusal(replicaID:syncID:_:)``, which must survive the refused sync's rollback.
import Foundation
import Geodatabase
import PackageFormat
import PostgreSQL

/// The replica registry of a PostgreSQL source (`pkgbuild.replicas` and companions).
final class ReplicaRegistry {
    let connection: Connection
    /// The schema of the source's tables whose replicas this registry holds.
    let sourceSchema: String
    /// How messages name the source (never with a password).
    let displayName: String

    init(connection: Connection, sourceSchema: String, displayName: String? = nil) {
        self.connection = connection
        self.sourceSchema = sourceSchema
        self.displayName = displayName ?? "PostgreSQL (\(connection.info.withoutSecrets))"
    }

    /// The source's generation now: the xmin of the current snapshot.
    static func currentGeneration(in connection: Connection) throws -> Int64 {
        try int64(connection.queryFirst("SELECT pg_snapshot_xmin(pg_current_snapshot())::text::bigint"), 0)
    }

    /// Whether the package may sync (``ReplicaStanding/decide``). Read it before writing
    /// anything, and again inside the transaction that records the sync.
    func standing(of package: PackageSyncHistory) throws -> ReplicaStanding {
        let replica = try replica(id: package.replicaID)
        return try ReplicaStanding.decide(package: package, registered: replica != nil,
                                          retired: replica == nil ? try retiredReplica(id: package.replicaID) : nil,
                                          newestSyncID: replica?.lastSyncID, isRecorded: isSyncApplied,
                                          sourceGeneration: try Self.currentGeneration(in: connection))
    }

    /// The replica of that id (exactly as stored) in this schema, or nil.
    func replica(id: String) throws -> Replica? {
        try connection.queryFirst("\(Self.replicaSelect) WHERE source_schema = $1 AND replica_id = $2",
                                  [.text(sourceSchema), .text(id)]).map(Self.replica(from:))
    }

    /// Every replica registered for this schema, oldest first.
    func replicas() throws -> [Replica] {
        try connection.query("\(Self.replicaSelect) WHERE source_schema = $1 ORDER BY created_at, replica_id",
                             [.text(sourceSchema)]).map(Self.replica(from:))
    }

    /// Registers a replica as `pending`.
    /// - Throws: ``GeodatabaseError``: `invalidArgument` for an id already registered (in any
    ///   schema), options that are not a JSON object, or a position the change log was pruned
    ///   past while the package was built (its changes since are gone: build it again).
    @discardableResult
    func registerReplica(_ registration: ReplicaRegistration) throws -> Replica {
        guard (try? JSONSerialization.jsonObject(with: Data(registration.optionsJSON.utf8))) is [String: Any] else {
            throw GeodatabaseError(.invalidArgument, "replica options are not a JSON object: \(registration.optionsJSON)")
        }
        let layers = String(decoding: try JSONEncoder().encode(registration.layers), as: UTF8.self)
        return try connection.withTransaction {
            if try connection.queryFirst("SELECT 1 FROM pkgbuild.replicas WHERE replica_id = $1", [.text(registration.id)]) != nil {
                throw GeodatabaseError(.invalidArgument, "\(displayName): replica \(registration.id) is already registered")
            }
            let prunedBefore = try LogPruning.prunedBefore(lockingIn: connection)
            if registration.generation < prunedBefore {
                throw GeodatabaseError(.invalidArgument, "\(displayName): replica \(registration.id) was read at generation "
                    + "\(registration.generation), but the change log was pruned before \(prunedBefore) meanwhile: "
                    + "the changes since its read are gone; build the package again")
            }
            try connection.execute("""
                INSERT INTO pkgbuild.replicas (replica_id, source_schema, name, state, extraction_generation, sync_generation,
                  area_wkt, area_crs, layers, options) VALUES ($1, $2, $3, 'pending', $4, $4, $5, $6, $7, $8)
                """, [.text(registration.id), .text(sourceSchema), registration.name.map(Parameter.text) ?? .null,
                      .text(String(registration.generation)), registration.areaWKT.map(Parameter.text) ?? .null,
                      registration.areaCRS.map(Parameter.text) ?? .null, .text(layers), .text(registration.optionsJSON)])
            return try requireReplica(id: registration.id)
        }
    }

    /// Marks a pending replica active (its package is complete).
    /// - Throws: ``GeodatabaseError`` (`notRegistered`) for an unknown id.
    func activateReplica(id: String) throws {
        try connection.withTransaction {
            _ = try requireReplica(id: id)
            try connection.execute("UPDATE pkgbuild.replicas SET state = 'active' WHERE replica_id = $1 AND state <> 'active'",
                                   [.text(id)])
        }
    }

    /// Retires a replica: its registration moves to `pkgbuild.retired_replicas` with when and
    /// by what (so its package's next sync is told it was unregistered), its sync records stay.
    /// - Throws: ``GeodatabaseError`` (`notRegistered`) for an id not registered in this schema.
    func unregisterReplica(id: String, by retiredBy: String, successor: String?) throws {
        try connection.withTransaction {
            _ = try requireReplica(id: id, locking: true)
            try connection.execute("""
                INSERT INTO pkgbuild.retired_replicas (replica_id, source_schema, name, area_wkt, area_crs, layers, options,
                  retired_by, successor_id)
                SELECT replica_id, source_schema, name, area_wkt, area_crs, layers, options, $2, $3
                FROM pkgbuild.replicas WHERE replica_id = $1
                ON CONFLICT (replica_id) DO UPDATE SET source_schema = EXCLUDED.source_schema, name = EXCLUDED.name,
                  area_wkt = EXCLUDED.area_wkt, area_crs = EXCLUDED.area_crs, layers = EXCLUDED.layers,
                  options = EXCLUDED.options, retired_at = now(), retired_by = EXCLUDED.retired_by,
                  successor_id = EXCLUDED.successor_id
                """, [.text(id), .text(retiredBy), successor.map(Parameter.text) ?? .null])
            try connection.execute("DELETE FROM pkgbuild.replicas WHERE replica_id = $1", [.text(id)])
        }
    }

    /// Names the replica that took over from a retired one, where none is recorded yet; the
    /// first successor stays.
    func recordSuccessor(_ successor: String, ofRetired id: String) throws {
        try connection.execute("""
            UPDATE pkgbuild.retired_replicas SET successor_id = $1
            WHERE replica_id = $2 AND source_schema = $3 AND successor_id IS NULL
            """, [.text(successor), .text(id), .text(sourceSchema)])
    }

    /// True when a sync of that id was applied.
    func isSyncApplied(_ syncID: String) throws -> Bool {
        try connection.queryFirst("SELECT 1 FROM pkgbuild.replica_syncs WHERE sync_id = $1", [.text(syncID)]) != nil
    }

    /// Records a sync as applied and advances the replica to `generation`, in the caller's
    /// transaction. The replica's row is locked first, so a concurrent retirement (`source
    /// unregister`, expiry) and this record are one after the other, never both.
    /// - Throws: ``GeodatabaseError``: `notRegistered` for an unknown replica; `invalidArgument`
    ///   when this sync id was already applied.
    func recordSync(replicaID: String, syncID: String, generation: Int64) throws {
        try connection.withTransaction {
            _ = try requireReplica(id: replicaID, locking: true)
            if try isSyncApplied(syncID) {
                throw GeodatabaseError(.invalidArgument, "\(displayName): sync \(syncID) was already applied")
            }
            try connection.execute("INSERT INTO pkgbuild.replica_syncs (sync_id, replica_id, generation) VALUES ($1, $2, $3)",
                                   [.text(syncID), .text(replicaID), .text(String(generation))])
            try connection.execute("""
                UPDATE pkgbuild.replicas SET sync_generation = $2, last_sync_id = $3, last_sync_at = now() WHERE replica_id = $1
                """, [.text(replicaID), .text(String(generation)), .text(syncID)])
        }
    }

    func requireReplica(id: String, locking: Bool = false) throws -> Replica {
        let lock = locking ? " FOR UPDATE" : ""
        guard let row = try connection.queryFirst("\(Self.replicaSelect) WHERE source_schema = $1 AND replica_id = $2\(lock)",
                                                  [.text(sourceSchema), .text(id)]) else {
            throw GeodatabaseError(.notRegistered, "\(displayName): no replica \(id) is registered")
        }
        return try Self.replica(from: row)
    }

    static let replicaSelect = """
        SELECT replica_id, name, state, extraction_generation, sync_generation, area_wkt, area_crs, layers, options,
          \(TrackingSchema.utcText("created_at")), \(TrackingSchema.utcText("last_sync_at")), last_sync_id
        FROM pkgbuild.replicas
        """

    /// The layer names of a registry row's JSON array (empty when it is not one).
    static func decodeLayers(_ json: String?) -> [String] {
        (try? JSONDecoder().decode([String].self, from: Data((json ?? "[]").utf8))) ?? []
    }

    static func replica(from row: Row) throws -> Replica {
        Replica(id: row.string(0) ?? "", name: row.string(1), state: Replica.State(rawValue: row.string(2) ?? "") ?? .pending,
                extractionGeneration: try int64(row, 3), syncGeneration: try int64(row, 4),
                areaWKT: row.string(5), areaCRS: row.string(6), layers: decodeLayers(row.string(7)),
                optionsJSON: row.string(8) ?? "{}", createdAt: row.string(9) ?? "", lastSyncAt: row.string(10),
                lastSyncID: row.string(11))
    }
}

/// A bigint column's value (0 for NULL or no row).
func int64(_ row: Row?, _ column: Int) throws -> Int64 {
    guard let row else { return 0 }
    return Int64(try row.int(column) ?? 0)
}
