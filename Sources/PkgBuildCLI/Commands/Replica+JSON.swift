import Geodatabase
import Geometry

extension Replica {
    /// The replica as `source replicas --json` and `source status --json` print it, keyed by
    /// the registry's column names.
    var jsonValue: JSONValue {
        .object([
            "id": .string(id), "name": .string(name), "state": .string(state.rawValue),
            "extraction_generation": .int(extractionGeneration), "sync_generation": .int(syncGeneration),
            "area_wkt": .string(areaWKT), "area_crs": .string(areaCRS),
            "layers": .array(layers.map { .string($0) }), "created_at": .string(createdAt),
            "last_sync_at": .string(lastSyncAt), "last_sync_id": .string(lastSyncID),
        ])
    }
}

extension RetiredReplica {
    var jsonValue: JSONValue {
        .object(["id": .string(id), "name": .string(name), "retired_at": .string(retiredAt), "retired_by": .string(retiredBy),
                 "successor_id": .string(successorID), "layers": .array(layers.map { .string($0) })])
    }
}

extension SyncRefusalNote {
    var jsonValue: JSONValue {
        .object(["replica_id": .string(replicaID), "sync_id": .string(syncID), "reason": .string(reason),
                 "message": .string(message), "refused_at": .string(refusedAt)])
    }
}
