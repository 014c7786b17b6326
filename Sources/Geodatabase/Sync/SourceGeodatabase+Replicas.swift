/// The replica registry of a source: one row of `pkgbuild_replicas` per package made from it,
/// and one row of `pkgbuild_replica_syncs` per sync applied, so that a retried sync is
/// recognised and not applied twice.
///
/// Life of a replica: `create` calls ``SourceGeodatabase/registerReplica(_:)`` (state
/// `pending`, generation at extraction recorded) before it renames the package into place and
/// ``SourceGeodatabase/activateReplica(id:)`` after, so a crash in between leaves a pending
/// replica that `source status` shows. A sync, in the same source transaction as its upload,
/// checks ``SourceGeodatabase/isSyncApplied(_:)`` and calls
/// ``SourceGeodatabase/recordSync(replicaID:syncID:generation:)``.
import Foundation
import SQLite

/// A registered replica (a package made from this source).
public struct Replica: Sendable, Hashable {
    public enum State: String, Sendable, Hashable {
        /// Registered, its package not yet known to be in place.
        case pending
        /// Its package was completed.
        case active
    }

    public var id: String
    public var name: String?
    public var state: State
    /// The source generation the package was extracted at.
    public var extractionGeneration: Int64
    /// The source generation the package is synced to (the extraction's, until a sync).
    public var syncGeneration: Int64
    /// The area of interest as WKT, in ``areaCRS``.
    public var areaWKT: String?
    public var areaCRS: String?
    public var layers: [String]
    /// Extraction options as a JSON object (clip, where-filters, CRS...), as `create` wrote them.
    public var optionsJSON: String
    public var createdAt: String
    public var lastSyncAt: String?
    public var lastSyncID: String?

    /// For drivers outside this module that keep a registry of their own.
    public init(id: String, name: String?, state: State, extractionGeneration: Int64, syncGeneration: Int64,
                areaWKT: String?, areaCRS: String?, layers: [String], optionsJSON: String, createdAt: String,
                lastSyncAt: String?, lastSyncID: String?) {
        self.id = id
        self.name = name
        self.state = state
        self.extractionGeneration = extractionGeneration
        self.syncGeneration = syncGeneration
        self.areaWKT = areaWKT
        self.areaCRS = areaCRS
        self.layers = layers
        self.optionsJSON = optionsJSON
        self.createdAt = createdAt
        self.lastSyncAt = lastSyncAt
        self.lastSyncID = lastSyncID
    }
}

/// What `create` registers.
public struct ReplicaRegistration: Sendable, Hashable {
    public var id: String
    public var name: String?
    public var generation: Int64
    public var areaWKT: String?
    public var areaCRS: String?
    public var layers: [String]
    public var optionsJSON: String

    /// - Parameters:
    ///   - id: the replica id; a fresh global id by default.
    ///   - generation: the source generation read in the extraction's read transaction.
    ///   - optionsJSON: a JSON object.
    public init(id: String = GlobalID.make(), name: String? = nil, generation: Int64, areaWKT: String? = nil,
                areaCRS: String? = nil, layers: [String], optionsJSON: String = "{}") {
        self.id = id
        self.name = name
        self.generation = generation
        self.areaWKT = areaWKT
        self.areaCRS = areaCRS
        self.layers = layers
        self.optionsJSON = optionsJSON
    }
}

extension SourceGeodatabase {
    /// Registers a replica as `pending`.
    /// - Throws: ``GeodatabaseError``: `notEnabled`; `invalidArgument` for an id already
    ///   registered or options that are not a JSON object; `SQLiteError` (read-only file...).
    @discardableResult
    public func registerReplica(_ registration: ReplicaRegistration) throws -> Replica {
        try requireEnabled()
        let options = Data(registration.optionsJSON.utf8)
        guard (try? JSONSerialization.jsonObject(with: options)) is [String: Any] else {
            throw GeodatabaseError(.invalidArgument, "replica options are not a JSON object: \(registration.optionsJSON)")
        }
        let layers = String(decoding: try JSONEncoder().encode(registration.layers), as: UTF8.self)
        return try connection.withTransaction(.immediate) {
            if try replica(id: registration.id) != nil {
                throw GeodatabaseError(.invalidArgument, "\(connection.path): replica \(registration.id) is already registered")
            }
            try connection.execute("""
                INSERT INTO pkgbuild_replicas (replica_id, name, state, extraction_generation, sync_generation,
                  area_wkt, area_crs, layers, options) VALUES (?1, ?2, 'pending', ?3, ?3, ?4, ?5, ?6, ?7)
                """, [.text(registration.id), registration.name.map(SQLiteValue.text) ?? .null,
                      .integer(registration.generation), registration.areaWKT.map(SQLiteValue.text) ?? .null,
                      registration.areaCRS.map(SQLiteValue.text) ?? .null, .text(layers),
                      .text(registration.optionsJSON)])
            return try requireReplica(id: registration.id)
        }
    }

    /// Marks a pending replica active (its package is complete).
    public func activateReplica(id: String) throws {
        try connection.withTransaction(.immediate) {
            _ = try requireReplica(id: id)
            try connection.execute("UPDATE pkgbuild_replicas SET state = 'active' WHERE replica_id = ? AND state <> 'active'",
                                   [.text(id)])
        }
    }

    /// Every registered replica, oldest first.
    public func replicas() throws -> [Replica] {
        try requireEnabled()
        return try connection.query("\(Self.replicaSelect) ORDER BY created_at, replica_id").map(Self.replica(from:))
    }

    /// The replica of that id, or nil.
    public func replica(id: String) throws -> Replica? {
        try requireEnabled()
        return try connection.query("\(Self.replicaSelect) WHERE replica_id = ?", [.text(id)]).first.map(Self.replica(from:))
    }

    /// Retires a replica: its package can no longer sync until `sync --reattach` gives it a
    /// new one. Its sync records stay, and its registration moves to
    /// `pkgbuild_retired_replicas` with when and by what, so that the package's next sync is
    /// told it was unregistered (not taken for a restored source) and a re-attach can take
    /// the area and filters the source registered for it.
    /// - Parameters:
    ///   - by: what retired it, for people (`source unregister`, `create (abandoned build)`).
    ///   - successor: the replica that takes over, for a re-attach.
    /// - Throws: ``GeodatabaseError`` (`notRegistered`) for an unknown id.
    public func unregisterReplica(id: String, by retiredBy: String = "pkgbuild source unregister",
                                  successor: String? = nil) throws {
        try connection.withTransaction(.immediate) {
            let id = try requireReplica(id: storedReplicaID(typed: id) ?? id).id
            for statement in SyncSchema.registryDDL { try connection.execute(statement) }
            try OwnTables.register(in: connection, side: .source)
            try connection.execute("""
                INSERT OR REPLACE INTO pkgbuild_retired_replicas (replica_id, name, area_wkt, area_crs, layers, options,
                  retired_by, successor_id)
                SELECT replica_id, name, area_wkt, area_crs, layers, options, ?2, ?3 FROM pkgbuild_replicas WHERE replica_id = ?1
                """, [.text(id), .text(retiredBy), successor.map(SQLiteValue.text) ?? .null])
            try connection.execute("DELETE FROM pkgbuild_replicas WHERE replica_id = ?", [.text(id)])
        }
    }

    /// Names the replica that took over from an unregistered one (a `sync --reattach` of its
    /// package), where no successor is recorded yet; the first successor stays.
    public func recordSuccessor(_ successor: String, ofRetired id: String) throws {
        try requireEnabled()
        guard try tableExists(SyncSchema.retiredReplicasTable, in: connection) else { return }
        try connection.execute("UPDATE pkgbuild_retired_replicas SET successor_id = ? WHERE replica_id = ? AND successor_id IS NULL",
                               [.text(successor), .text(id)])
    }

    /// True when a sync of that id was applied (recorded by ``recordSync(replicaID:syncID:generation:)``).
    public func isSyncApplied(_ syncID: String) throws -> Bool {
        try requireEnabled()
        return try connection.scalar("SELECT 1 FROM pkgbuild_replica_syncs WHERE sync_id = ?", [.text(syncID)]) != nil
    }

    /// Records a sync as applied and advances the replica to `generation`. Call it inside the
    /// transaction that applies the sync's upload, so both commit or neither does.
    /// - Throws: ``GeodatabaseError``: `notRegistered` for an unknown replica;
    ///   `invalidArgument` when this sync id was already applied.
    public func recordSync(replicaID: String, syncID: String, generation: Int64) throws {
        try connection.withTransaction(.immediate) {
            _ = try requireReplica(id: replicaID)
            if try isSyncApplied(syncID) {
                throw GeodatabaseError(.invalidArgument, "\(connection.path): sync \(syncID) was already applied")
            }
            try connection.execute("INSERT INTO pkgbuild_replica_syncs (sync_id, replica_id, generation) VALUES (?, ?, ?)",
                                   [.text(syncID), .text(replicaID), .integer(generation)])
            try connection.execute("""
                UPDATE pkgbuild_replicas SET sync_generation = ?2, last_sync_id = ?3,
                  last_sync_at = strftime('%Y-%m-%dT%H:%M:%fZ','now') WHERE replica_id = ?1
                """, [.text(replicaID), .integer(generation), .text(syncID)])
        }
    }

    /// The registered replica id that `typed` names as people type ids (any case, braces
    /// optional: the one parser of globalids), for commands; sync matches its package's id exactly.
    func storedReplicaID(typed: String) throws -> String? {
        let match = GlobalID.condition("replica_id", typed: typed)
        return try connection.scalar("SELECT replica_id FROM pkgbuild_replicas WHERE \(match.sql)", [.text(match.argument)])?.stringValue
    }

    func requireReplica(id: String) throws -> Replica {
        guard let replica = try replica(id: id) else {
            throw GeodatabaseError(.notRegistered, "\(connection.path): no replica \(id) is registered")
        }
        return replica
    }

    static let replicaSelect = """
        SELECT replica_id, name, state, extraction_generation, sync_generation, area_wkt, area_crs, layers,
          options, created_at, last_sync_at, last_sync_id FROM pkgbuild_replicas
        """

    /// The layer names of a registry row's JSON array (empty when it is not one).
    static func decodeLayers(_ json: String?) -> [String] {
        (try? JSONDecoder().decode([String].self, from: Data((json ?? "[]").utf8))) ?? []
    }

    static func replica(from row: [SQLiteValue]) -> Replica {
        let layers = decodeLayers(row[7].stringValue)
        return Replica(id: row[0].stringValue ?? "", name: row[1].stringValue,
                       state: Replica.State(rawValue: row[2].stringValue ?? "") ?? .pending,
                       extractionGeneration: row[3].int64Value ?? 0, syncGeneration: row[4].int64Value ?? 0,
                       areaWKT: row[5].stringValue, areaCRS: row[6].stringValue, layers: layers,
                       optionsJSON: row[8].stringValue ?? "{}", createdAt: row[9].stringValue ?? "",
                       lastSyncAt: row[10].stringValue, lastSyncID: row[11].stringValue)
    }
}
