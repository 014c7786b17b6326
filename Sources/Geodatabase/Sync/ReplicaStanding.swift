/// Whether a package may sync with its source, decided from sync ids, not generations.
///
/// A package keeps the id of its last completed sync (L) and of the one in flight (P); the
/// source records every sync's id in `pkgbuild_replica_syncs` before the package commits it,
/// and keeps the replica's newest (H, `pkgbuild_replicas.last_sync_id`). Then:
/// - P set and recorded at the source: the source committed and the package did not; resume
///   only when H = P (otherwise another copy of the package has synced since: a stale copy).
/// - Otherwise go on only when H = L (both empty for a package never synced).
/// - L set but never recorded at the source, or a package generation above anything the source
///   ever issued: the source was restored from an older backup. Any other difference: this
///   package is a stale copy (a restored backup of it, a second device).
/// Generations alone cannot tell: an upload-only sync does not move the package's generation,
/// and a re-run after a kill between the two commits must go on.
import SQLite

/// What a package knows of its own sync history.
public struct PackageSyncHistory: Sendable, Hashable {
    public var replicaID: String
    /// L: the last sync this package completed.
    public var lastSyncID: String?
    /// P: the sync recorded in the package and not finished.
    public var pendingSyncID: String?
    /// The source generation the package's rows reflect.
    public var generation: Int64
    /// False for packages whose syncs did not all record their ids at the source (built and
    /// synced before every sync did): only the generation and the registration are checked.
    public var recordsEverySync: Bool

    public init(replicaID: String, lastSyncID: String?, pendingSyncID: String?, generation: Int64, recordsEverySync: Bool) {
        self.replicaID = replicaID
        self.lastSyncID = lastSyncID
        self.pendingSyncID = pendingSyncID
        self.generation = generation
        self.recordsEverySync = recordsEverySync
    }
}

/// What the source's registry says of a package.
public enum ReplicaStanding: Sendable, Hashable {
    /// In step: sync.
    case current
    /// The source committed the pending sync and the package did not: finish it.
    case resuming
    /// Refused: the package is not where the source knows it to be.
    case refused(Refusal)

    public struct Refusal: Sendable, Hashable {
        public enum Reason: String, Sendable, Hashable, CaseIterable {
            /// Another copy of the package synced after this one was copied.
            case staleCopy = "stale-copy"
            /// The source is older than syncs the package completed.
            case restoredSource = "restored-source"
            /// The replica was unregistered at the source.
            case unregistered
            /// The source never registered the replica (another source, or restored from a
            /// backup older than the package).
            case unknownReplica = "unknown-replica"
        }

        public var reason: Reason
        /// What was found, in words.
        public var finding: String

        /// What was found, with the way out for a package called PKG (as the source notes it).
        public var message: String { message(package: "PKG") }

        /// What was found, with the way out naming the package.
        public func message(package: String) -> String { "\(finding); \(ReplicaStanding.wayOut(package: package))" }
    }

    /// The way out of every refusal.
    public static func wayOut(package: String) -> String {
        "run 'pkgbuild sync \(package) --reattach' to give the package a new replica at the source's "
            + "current state: every pending edit and every row where package and source differ becomes a conflict to resolve"
    }

    /// The decision, from what the package and the source hold (see the file's documentation).
    public static func decide(package p: PackageSyncHistory, registered: Bool, retired: RetiredReplica?,
                              newestSyncID h: String?, isRecorded: (String) throws -> Bool,
                              sourceGeneration: Int64) rethrows -> ReplicaStanding {
        func refuse(_ reason: Refusal.Reason, _ what: String) -> ReplicaStanding {
            .refused(Refusal(reason: reason, finding: what))
        }
        if p.generation > sourceGeneration {
            return refuse(.restoredSource, "the package reflects source generation \(p.generation) but the source has "
                + "issued only up to \(sourceGeneration): the source was restored from an older backup")
        }
        guard registered else {
            if let retired {
                return refuse(.unregistered, "replica \(p.replicaID) was unregistered at the source on \(retired.retiredAt) "
                    + "by \(retired.retiredBy)\(retired.successorID.map { " (replaced by replica \($0))" } ?? "")")
            }
            return refuse(.unknownReplica, "the source has no record of replica \(p.replicaID): the package was built from "
                + "another source, or the source was restored from a backup older than the package")
        }
        guard p.recordsEverySync else { return .current }
        if let pending = p.pendingSyncID, try isRecorded(pending) {
            if h == pending { return .resuming }
            return refuse(.staleCopy, "the source applied this package's sync \(pending) and then sync \(h ?? "none") of "
                + "another copy of it: this copy is stale")
        }
        if h == p.lastSyncID { return .current }
        if let last = p.lastSyncID, try !isRecorded(last) {
            return refuse(.restoredSource, "the package completed sync \(last), which the source has no record of: "
                + "the source was restored from an older backup")
        }
        return refuse(.staleCopy, "the source's last sync of replica \(p.replicaID) is \(h ?? "none") but this package's is "
            + "\(p.lastSyncID ?? "none"): another copy of the package synced after this one was made, so this copy is stale")
    }
}

/// A replica taken out of the registry.
public struct RetiredReplica: Sendable, Hashable {
    public var id: String
    public var name: String?
    public var areaWKT: String?
    public var areaCRS: String?
    public var layers: [String]
    public var optionsJSON: String
    public var retiredAt: String
    public var retiredBy: String
    public var successorID: String?

    /// For drivers outside this module that keep a registry of their own.
    public init(id: String, name: String?, areaWKT: String?, areaCRS: String?, layers: [String], optionsJSON: String,
                retiredAt: String, retiredBy: String, successorID: String?) {
        self.id = id
        self.name = name
        self.areaWKT = areaWKT
        self.areaCRS = areaCRS
        self.layers = layers
        self.optionsJSON = optionsJSON
        self.retiredAt = retiredAt
        self.retiredBy = retiredBy
        self.successorID = successorID
    }
}

/// A sync the source refused, as noted in `pkgbuild_sync_refusals`.
public struct SyncRefusalNote: Sendable, Hashable {
    public var replicaID: String
    public var syncID: String?
    public var reason: String
    public var message: String
    public var refusedAt: String

    public init(replicaID: String, syncID: String?, reason: String, message: String, refusedAt: String) {
        self.replicaID = replicaID
        self.syncID = syncID
        self.reason = reason
        self.message = message
        self.refusedAt = refusedAt
    }
}

extension SourceGeodatabase {
    /// Where the package stands with this source. Read it before writing anything, and again
    /// inside the transaction that records the sync.
    public func standing(of package: PackageSyncHistory) throws -> ReplicaStanding {
        try requireEnabled()
        let replica = try replica(id: package.replicaID)
        return try ReplicaStanding.decide(package: package, registered: replica != nil,
                                      retired: replica == nil ? try retiredReplica(id: package.replicaID) : nil,
                                      newestSyncID: replica?.lastSyncID,
                                      isRecorded: isSyncApplied,
                                      sourceGeneration: try generation())
    }

    /// The retired replica of that id, nil when it was never retired.
    public func retiredReplica(id: String) throws -> RetiredReplica? {
        guard try tableExists(SyncSchema.retiredReplicasTable, in: connection) else { return nil }
        return try connection.query("""
            SELECT replica_id, name, area_wkt, area_crs, layers, options, retired_at, retired_by, successor_id
            FROM pkgbuild_retired_replicas WHERE replica_id = ?
            """, [.text(id)]).first.map { row in
            RetiredReplica(id: row[0].stringValue ?? id, name: row[1].stringValue, areaWKT: row[2].stringValue,
                           areaCRS: row[3].stringValue, layers: Self.decodeLayers(row[4].stringValue),
                           optionsJSON: row[5].stringValue ?? "{}", retiredAt: row[6].stringValue ?? "",
                           retiredBy: row[7].stringValue ?? "", successorID: row[8].stringValue)
        }
    }

    /// Every retired replica, oldest retirement first.
    public func retiredReplicas() throws -> [RetiredReplica] {
        guard try tableExists(SyncSchema.retiredReplicasTable, in: connection) else { return [] }
        return try connection.query("SELECT replica_id FROM pkgbuild_retired_replicas ORDER BY retired_at, replica_id")
            .compactMap { try $0[0].stringValue.flatMap(retiredReplica(id:)) }
    }

    /// Notes a refused sync at the source, the only write a refused sync makes.
    public func noteRefusal(replicaID: String, syncID: String?, _ refusal: ReplicaStanding.Refusal) throws {
        try connection.withTransaction(.immediate) {
            for statement in SyncSchema.registryDDL { try connection.execute(statement) }
            try OwnTables.register(in: connection, side: .source)
            try connection.execute("INSERT INTO pkgbuild_sync_refusals (replica_id, sync_id, reason, message) VALUES (?, ?, ?, ?)",
                                   [.text(replicaID), syncID.map(SQLiteValue.text) ?? .null, .text(refusal.reason.rawValue),
                                    .text(refusal.message)])
        }
    }

    /// The refusals noted at this source, newest first.
    public func refusals() throws -> [SyncRefusalNote] {
        guard try tableExists(SyncSchema.syncRefusalsTable, in: connection) else { return [] }
        return try connection.query("""
            SELECT replica_id, sync_id, reason, message, refused_at FROM pkgbuild_sync_refusals ORDER BY id DESC
            """).map { row in
            SyncRefusalNote(replicaID: row[0].stringValue ?? "", syncID: row[1].stringValue, reason: row[2].stringValue ?? "",
                            message: row[3].stringValue ?? "", refusedAt: row[4].stringValue ?? "")
        }
    }
}
