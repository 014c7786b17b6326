import Foundation
import Geodatabase
import PostgreSQL
@testable import PostgreSQLSource
import Testing
import TestSupport

/// A fresh database with the `pkgbuild` schema (`TrackingSchema.ddl`, as `source enable` runs
/// it), a tracked table in `public` and a schema `field` with one too, so the registry's
/// addresses work as an enabled source's.
final class RegistryDatabase {
    let database: PostgreSQLTestDatabase
    let connection: Connection

    init() throws {
        database = try PostgreSQLTestDatabase()
        connection = try Connection(database.conninfo)
        for statement in TrackingSchema.ddl { try connection.execute(statement) }
        try connection.execute("""
            CREATE SCHEMA field;
            CREATE TABLE public.parks (id serial PRIMARY KEY, globalid uuid, name text, geom geometry(Point, 4326));
            CREATE TABLE field.plots (id serial PRIMARY KEY, globalid uuid, note text);
            INSERT INTO public.parks (globalid, name) VALUES (gen_random_uuid(), 'Denali'), (gen_random_uuid(), 'Kenai');
            INSERT INTO pkgbuild.tables (table_schema, table_name, key_column, globalid_column)
              VALUES ('public', 'parks', 'id', 'globalid'), ('field', 'plots', 'id', 'globalid');
            """)
    }

    /// The address the CLI takes for a schema.
    func address(schema: String = "public") -> String { "PG:\(database.conninfo) schemas=\(schema)" }

    func registry(_ schema: String = "public") -> ReplicaRegistry {
        ReplicaRegistry(connection: connection, sourceSchema: schema)
    }

    /// psql's answer on this database: the independent judge.
    @discardableResult
    func psql(_ sql: String) throws -> String { try PostgreSQLTestServer.psql(sql, conninfo: database.conninfo) }

    /// The source's generation now, as psql reads it.
    func currentXmin() throws -> Int64 {
        try #require(Int64(psql("SELECT pg_snapshot_xmin(pg_current_snapshot())::text::bigint")))
    }

    /// Waits until the current xmin is at least `value`: transaction ids are the cluster's, and
    /// another test's open transaction may hold the xmin back a moment.
    @discardableResult
    func waitForXmin(atLeast value: Int64) throws -> Int64 {
        for _ in 0..<600 {
            let xmin = try currentXmin()
            if xmin >= value { return xmin }
            Thread.sleep(forTimeInterval: 0.05)
        }
        throw TestSupportError("the xmin stayed below \(value) for 30 s")
    }

    /// Appends one change-log row in a transaction of its own (as a trigger would), and returns
    /// its id and the transaction's id.
    @discardableResult
    func logChange(on connection: Connection? = nil, table: String = "parks") throws -> (id: Int64, txid: Int64) {
        let row = try #require(try (connection ?? self.connection).queryFirst("""
            INSERT INTO pkgbuild.changes (table_schema, table_name, globalid, operation)
            VALUES ('public', $1, gen_random_uuid(), 'update') RETURNING id, txid::text::bigint
            """, [.text(table)]))
        return (Int64(try #require(try row.int(0))), Int64(try #require(try row.int(1))))
    }

    /// Registers a replica at generation `generation` (the current xmin by default).
    @discardableResult
    func register(_ name: String, schema: String = "public", generation: Int64? = nil) throws -> Replica {
        try registry(schema).registerReplica(ReplicaRegistration(name: name, generation: try generation ?? currentXmin(),
                                                                 areaWKT: "POINT (1 2)", areaCRS: "EPSG:4326",
                                                                 layers: ["parks"], optionsJSON: #"{"clip":false}"#))
    }
}

/// Runs beside the test cluster (`scripts/with-pg-test-cluster`); skipped otherwise.
let registryNeedsCluster = ConditionTrait.enabled(if: PostgreSQLTestServer.isAvailable,
                                                  Comment(rawValue: PostgreSQLTestServer.unavailableNote))
