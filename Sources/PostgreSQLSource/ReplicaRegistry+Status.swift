/// What `pkgbuild source status` shows of a PostgreSQL source: the schema's tables, the
/// generation, where the change log was pruned, the registry's lists and the relationships,
/// read in one read-only snapshot so that they agree.
import Geodatabase
import PostgreSQL
import SourceDrivers

/// A PostgreSQL source's status.
public struct PostgreSQLSourceStatus: Sendable {
    /// One table of the schema (a PostGIS table is `features`, any other `attributes`).
    public struct Table: Sendable {
        public var name: String
        public var kind: String
        public var rowCount: Int64
        public var globalIDColumn: String?
        public var isTracked: Bool
    }

    public var isEnabled: Bool
    /// The current snapshot's xmin.
    public var generation: Int64
    /// Change-log rows below this generation were pruned (0: never); nil when not enabled.
    public var prunedBefore: Int64?
    public var changeLogRows: Int64?
    public var tables: [Table]
    public var replicas: [Replica]
    public var retired: [RetiredReplica]
    public var refusals: [SyncRefusalNote]
    public var relationships: [Relationship]
}

extension PostgreSQLSourceAdministration {
    /// The status, in one read-only REPEATABLE READ transaction; a schema not sync-enabled
    /// gives its tables and nothing else.
    public func status() throws -> PostgreSQLSourceStatus {
        let connection = database.connection
        // Before the snapshot: asking a database without the pkgbuild schema fails the statement,
        // and with it the transaction it would run in.
        let isEnabled = try database.isEnabled()
        return try naming("the status could not be read") { try connection.withTransaction(.repeatableRead, readOnly: true) {
            let registry = ReplicaRegistry(connection: connection, sourceSchema: schema, displayName: displayName)
            return PostgreSQLSourceStatus(
                isEnabled: isEnabled, generation: try ReplicaRegistry.currentGeneration(in: connection),
                prunedBefore: isEnabled ? try LogPruning.prunedBefore(in: connection) : nil,
                changeLogRows: isEnabled ? try int64(connection.queryFirst("SELECT count(*) FROM pkgbuild.changes"), 0) : nil,
                tables: try tables(isEnabled: isEnabled),
                replicas: isEnabled ? try registry.replicas() : [], retired: isEnabled ? try registry.retiredReplicas() : [],
                refusals: isEnabled ? try registry.refusals() : [], relationships: isEnabled ? try relationships() : [])
        } }
    }

    /// The schema's tables and partitioned tables, by name, with their row counts; an
    /// extension's own (PostGIS's `spatial_ref_sys`) are not the source's.
    func tables(isEnabled: Bool) throws -> [PostgreSQLSourceStatus.Table] {
        let connection = database.connection
        var tracked: [String: String] = [:]
        if isEnabled {
            for row in try connection.query("SELECT table_name, globalid_column FROM pkgbuild.tables WHERE table_schema = $1",
                                            [.text(schema)]) {
                tracked[row.string(0) ?? ""] = row.string(1)
            }
        }
        let rows = try connection.query("""
            SELECT c.relname,
              EXISTS (SELECT 1 FROM geometry_columns g WHERE g.f_table_schema = n.nspname AND g.f_table_name = c.relname),
              (SELECT a.attname FROM pg_attribute a WHERE a.attrelid = c.oid AND lower(a.attname) = 'globalid'
                 AND a.attnum > 0 AND NOT a.attisdropped LIMIT 1)
            FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
            WHERE n.nspname = $1 AND c.relkind IN ('r', 'p') AND NOT c.relispartition
              AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.classid = 'pg_class'::regclass AND d.objid = c.oid
                              AND d.deptype = 'e')
            ORDER BY c.relname
            """, [.text(schema)])
        return try rows.map { row in
            let name = row.string(0) ?? ""
            let count = try int64(connection.queryFirst("SELECT count(*) FROM \(database.qualified(name))"), 0)
            return PostgreSQLSourceStatus.Table(name: name, kind: try row.bool(1) == true ? "features" : "attributes",
                                                rowCount: count, globalIDColumn: tracked[name] ?? row.string(2),
                                                isTracked: tracked[name] != nil)
        }
    }

    /// The key-based relationships `source relate` declared for the schema.
    func relationships() throws -> [Relationship] {
        try database.connection.query("""
            SELECT name, origin_table, origin_key, destination_table, destination_key, cardinality
            FROM pkgbuild.relationships WHERE table_schema = $1 ORDER BY name
            """, [.text(schema)]).map { row in
            Relationship(name: row.string(0) ?? "", originTable: row.string(1) ?? "", originKey: row.string(2) ?? "",
                         destinationTable: row.string(3) ?? "", destinationKey: row.string(4) ?? "",
                         cardinality: Cardinality(rawValue: row.string(5) ?? "") ?? .oneToMany, storage: .keys)
        }
    }
}
