/// The replica state a package keeps inside `data.gpkg`, in the same transactions as its data
/// (manifest.json only describes): which replica it is, the source generation it is synced to,
/// and the sync in flight.
///
/// ```sql
/// CREATE TABLE pkgbuild_replica_state (id INTEGER PRIMARY KEY CHECK (id = 1),
///   replica_id TEXT NOT NULL, source_generation INTEGER NOT NULL,
///   pending_sync_id TEXT, pending_position INTEGER,   -- set before a sync touches the source
///   last_sync_id TEXT, last_sync_at TEXT);
/// ```
///
/// `create` calls ``initialize(replicaID:sourceGeneration:)`` once, with the generation of its
/// read transaction. A sync records its id and the change-log position it uploads through
/// (``beginSync(syncID:position:)``) and commits that before it writes to the source; after the
/// source committed, it applies the download and calls ``finishSync(generation:)`` in the
/// package's own transaction. A pending id found at start is a sync that was interrupted.
import SQLite

/// One package's replica state (the single row of `pkgbuild_replica_state`).
public struct PackageReplicaState: Sendable, Hashable {
    public var replicaID: String
    /// The source generation the package's rows reflect.
    public var sourceGeneration: Int64
    /// The id of a sync that recorded itself but has not finished, nil between syncs.
    public var pendingSyncID: String?
    /// The change-log position that sync uploads through.
    public var pendingPosition: Int64?
    public var lastSyncID: String?
    public var lastSyncAt: String?

    public init(replicaID: String, sourceGeneration: Int64, pendingSyncID: String? = nil,
                pendingPosition: Int64? = nil, lastSyncID: String? = nil, lastSyncAt: String? = nil) {
        self.replicaID = replicaID
        self.sourceGeneration = sourceGeneration
        self.pendingSyncID = pendingSyncID
        self.pendingPosition = pendingPosition
        self.lastSyncID = lastSyncID
        self.lastSyncAt = lastSyncAt
    }
}

/// Reads and writes a package's ``PackageReplicaState`` over a connection the caller owns.
///
/// - Important: Like its ``Connection``, not thread-safe: one owner at a time.
public struct PackageReplica {
    public static let stateTable = "pkgbuild_replica_state"

    static let ddl = """
        CREATE TABLE IF NOT EXISTS pkgbuild_replica_state (id INTEGER PRIMARY KEY CHECK (id = 1), \
        replica_id TEXT NOT NULL, source_generation INTEGER NOT NULL, pending_sync_id TEXT, \
        pending_position INTEGER, last_sync_id TEXT, last_sync_at TEXT)
        """

    public let connection: Connection

    public init(connection: Connection) {
        self.connection = connection
    }

    /// Records the replica a freshly built package is, synced to `sourceGeneration`.
    /// - Throws: ``GeodatabaseError`` (`invalidArgument`) when the package already is a replica.
    public func initialize(replicaID: String, sourceGeneration: Int64) throws {
        try connection.withTransaction(.immediate) {
            try connection.execute(Self.ddl)
            if let existing = try read() {
                throw GeodatabaseError(.invalidArgument,
                                       "\(connection.path) is already replica \(existing.replicaID)")
            }
            try connection.execute("""
                INSERT INTO pkgbuild_replica_state (id, replica_id, source_generation) VALUES (1, ?, ?)
                """, [.text(replicaID), .integer(sourceGeneration)])
        }
    }

    /// The state, or nil for a GeoPackage that is not a replica.
    public func read() throws -> PackageReplicaState? {
        guard try tableExists(Self.stateTable, in: connection) else { return nil }
        guard let row = try connection.query("""
            SELECT replica_id, source_generation, pending_sync_id, pending_position, last_sync_id, last_sync_at
            FROM pkgbuild_replica_state WHERE id = 1
            """).first else { return nil }
        return PackageReplicaState(replicaID: row[0].stringValue ?? "", sourceGeneration: row[1].int64Value ?? 0,
                                   pendingSyncID: row[2].stringValue, pendingPosition: row[3].int64Value,
                                   lastSyncID: row[4].stringValue, lastSyncAt: row[5].stringValue)
    }

    /// The state of a package that must be a replica.
    /// - Throws: ``GeodatabaseError`` (`notEnabled`) naming the file otherwise.
    public func require() throws -> PackageReplicaState {
        guard let state = try read() else {
            throw GeodatabaseError(.notEnabled, "\(connection.path) is not a package replica (no pkgbuild_replica_state)")
        }
        return state
    }

    /// Records the sync about to start: its id and the change-log position it uploads through.
    public func beginSync(syncID: String, position: Int64) throws {
        try connection.execute("UPDATE pkgbuild_replica_state SET pending_sync_id = ?, pending_position = ? WHERE id = 1",
                               [.text(syncID), .integer(position)])
    }

    /// Forgets a pending sync that never reached the source (refused, or stopped on conflicts).
    public func abandonSync() throws {
        try connection.execute("UPDATE pkgbuild_replica_state SET pending_sync_id = NULL, pending_position = NULL WHERE id = 1")
    }

    /// Ends the pending sync: the package now reflects source generation `generation`.
    public func finishSync(generation: Int64) throws {
        try connection.execute("""
            UPDATE pkgbuild_replica_state SET source_generation = ?, last_sync_id = pending_sync_id,
              last_sync_at = strftime('%Y-%m-%dT%H:%M:%fZ','now'), pending_sync_id = NULL, pending_position = NULL
            WHERE id = 1
            """, [.integer(generation)])
    }
}
