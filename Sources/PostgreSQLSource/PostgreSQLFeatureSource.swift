/// A schema of a PostgreSQL/PostGIS database as a feature source: its tables read from the
/// catalog once, and one REPEATABLE READ, READ ONLY transaction for the rows of one `create`
/// or `estimate`. The layers and relationships are in `+Schema.swift`, the row streams in
/// `+Rows.swift`, the metadata a package copies in `+Metadata.swift`.
import Geodatabase
import PostgreSQL
import SourceDrivers

/// One PostgreSQL source, connected for one `create` or `estimate`.
///
/// - Important: Holds a connection: one owner at a time.
public final class PostgreSQLFeatureSource: FeatureSource {
    public let displayName: String
    public var kind: String { "postgresql" }
    /// The address without its secrets, in the form the driver takes (`PG:host=… dbname=…
    /// schemas=…`): what the manifest records, from which libpq finds the password again.
    public let location: String
    /// True when this user could not register a replica: a read-only session (a standby), or
    /// no right to write the registry (INSERT on pkgbuild.replicas, or CREATE in the database
    /// for the pkgbuild schema when it is not there yet).
    public let isReadOnly: Bool
    let database: SourceDatabase
    /// The schema's tables as the catalog describes them, by name.
    let tables: [String: CatalogTable]
    /// Their names in order.
    let tableNames: [String]

    var connection: Connection { database.connection }
    var schema: String { database.schema }

    /// Reads the schema's tables.
    /// - Throws: ``SourceError`` (`unusable`) when the catalog cannot be read.
    init(_ database: SourceDatabase) throws {
        self.database = database
        displayName = database.displayName
        location = Self.location(of: database.connection.info)
        do {
            let catalog = try Catalog.tables(in: database.schema, on: database.connection)
            tables = Dictionary(catalog.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
            tableNames = catalog.map(\.name)
            isReadOnly = try Self.isReadOnly(database.connection)
        } catch let error as PostgreSQLError {
            throw SourceError(.unusable, "source \(database.displayName): \(error.message)")
        }
    }

    /// `PG:` and the stored parameters, the schema as `schemas=`: never a password.
    static func location(of info: ConnectionInfo) -> String {
        var stored = info.storedParameters
        let schema = stored.removeValue(forKey: "schema") ?? info.schema
        let pairs = ["host", "hostaddr", "port", "dbname", "user", "sslmode", "service"].compactMap { key in
            stored[key].map { "\(key)=\(quoted($0))" }
        }
        return "PG:" + (pairs + ["schemas=\(quoted(schema))"]).joined(separator: " ")
    }

    /// A conninfo value: bare when it has no space, quote or backslash, else in single quotes
    /// with those escaped by a backslash (libpq's rule).
    private static func quoted(_ value: String) -> String {
        let special = value.isEmpty || value.contains { $0 == " " || $0 == "'" || $0 == "\\" || $0.isWhitespace }
        guard special else { return value }
        var result = "'"
        for character in value {
            if character == "'" || character == "\\" { result.append("\\") }
            result.append(character)
        }
        return result + "'"
    }

    private static func isReadOnly(_ connection: Connection) throws -> Bool {
        let row = try connection.queryFirst("""
            SELECT current_setting('transaction_read_only') = 'on' OR CASE
              WHEN to_regclass('pkgbuild.replicas') IS NOT NULL THEN NOT has_table_privilege('pkgbuild.replicas', 'INSERT')
              ELSE NOT has_database_privilege(current_database(), 'CREATE') END
            """)
        return try row?.bool(0) ?? true
    }

    public func spatialReferenceSystem(id: Int64) throws -> SpatialReferenceInfo? {
        try reading { try SpatialReferenceCatalog.system(id: id, on: connection) }
    }

    public func isSyncEnabled() throws -> Bool {
        // to_regclass, not a query that may fail: a failed statement would end the snapshot.
        // (The table is named in a statement of its own: one naming a missing table fails.)
        try reading {
            guard try connection.queryFirst("SELECT to_regclass('pkgbuild.tables') IS NOT NULL")?.bool(0) == true else { return false }
            return try connection.queryFirst("SELECT 1 FROM pkgbuild.tables WHERE table_schema = $1 LIMIT 1", [.text(schema)]) != nil
        }
    }

    public func withReadSnapshot<T>(_ body: () throws -> T) throws -> T {
        do {
            return try connection.withTransaction(.repeatableRead, readOnly: true, body)
        } catch let error as PostgreSQLError {
            throw SourceError(.unusable, "source \(displayName): \(error.message)")
        }
    }

    /// The snapshot as the change cursor: the log rows of transactions it does not see are
    /// the next download's; its xmin is the registry's generation (it only grows).
    public func changePosition() throws -> SourcePosition? {
        guard try isSyncEnabled() else { return nil }
        let row = try reading {
            try connection.queryFirst("SELECT pg_current_snapshot()::text, pg_snapshot_xmin(pg_current_snapshot())::text::bigint")
        }
        guard let row, let cursor = row.string(0), let generation = try row.int(1) else {
            throw SourceError(.unusable, "source \(displayName): the server gave no snapshot")
        }
        return SourcePosition(cursor: cursor, generation: Int64(generation))
    }

    /// `body`, its PostgreSQL errors as the source's.
    @discardableResult
    func reading<T>(_ body: () throws -> T) throws -> T {
        do { return try body() } catch let error as PostgreSQLError {
            throw SourceError(.unusable, "source \(displayName): \(error.message)")
        }
    }
}
