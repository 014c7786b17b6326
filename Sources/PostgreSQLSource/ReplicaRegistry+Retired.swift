/// The registry's memory of what went wrong: replicas taken out of it (`pkgbuild.retired_replicas`)
/// and syncs it refused (`pkgbuild.sync_refusals`), each of this registry's schema.
import Geodatabase
import PostgreSQL

extension ReplicaRegistry {
    /// The retired replica of that id, nil when it was never retired.
    func retiredReplica(id: String) throws -> RetiredReplica? {
        try connection.queryFirst("\(Self.retiredSelect) AND replica_id = $2", [.text(sourceSchema), .text(id)])
            .map(Self.retiredReplica(from:))
    }

    /// Every retired replica of this schema, oldest retirement first.
    func retiredReplicas() throws -> [RetiredReplica] {
        try connection.query("\(Self.retiredSelect) ORDER BY retired_at, replica_id", [.text(sourceSchema)])
            .map(Self.retiredReplica(from:))
    }

    /// Notes a refused sync, the only write a refused sync makes. It must outlive the sync's
    /// rollback: with no transaction open it commits on its own; inside one it goes through a
    /// connection of its own.
    func noteRefusal(replicaID: String, syncID: String?, _ refusal: ReplicaStanding.Refusal) throws {
        let note = connection.isInTransaction ? try Connection(connection.info) : connection
        try note.execute("""
            INSERT INTO pkgbuild.sync_refusals (replica_id, source_schema, sync_id, reason, message) VALUES ($1, $2, $3, $4, $5)
            """, [.text(replicaID), .text(sourceSchema), syncID.map(Parameter.text) ?? .null, .text(refusal.reason.rawValue),
                  .text(refusal.message)])
    }

    /// The refusals noted for this schema, newest first.
    func refusals() throws -> [SyncRefusalNote] {
        try connection.query("""
            SELECT replica_id, sync_id, reason, message, \(TrackingSchema.utcText("refused_at"))
            FROM pkgbuild.sync_refusals WHERE source_schema = $1 ORDER BY id DESC
            """, [.text(sourceSchema)]).map { row in
            SyncRefusalNote(replicaID: row.string(0) ?? "", syncID: row.string(1), reason: row.string(2) ?? "",
                            message: row.string(3) ?? "", refusedAt: row.string(4) ?? "")
        }
    }

    static let retiredSelect = """
        SELECT replica_id, name, area_wkt, area_crs, layers, options, \(TrackingSchema.utcText("retired_at")), retired_by,
          successor_id FROM pkgbuild.retired_replicas WHERE source_schema = $1
        """

    static func retiredReplica(from row: Row) -> RetiredReplica {
        RetiredReplica(id: row.string(0) ?? "", name: row.string(1), areaWKT: row.string(2), areaCRS: row.string(3),
                       layers: decodeLayers(row.string(4)), optionsJSON: row.string(5) ?? "{}", retiredAt: row.string(6) ?? "",
                       retiredBy: row.string(7) ?? "", successorID: row.string(8))
    }
}
