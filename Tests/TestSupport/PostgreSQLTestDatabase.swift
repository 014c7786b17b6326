import Foundation

extension PostgreSQLTestServer {
    /// Debian's psql of PostgreSQL 15 itself (not the pg_wrapper script): the independent judge
    /// of what reached the database.
    public static let psqlPath = "/usr/lib/postgresql/15/bin/psql"

    /// Runs `sql` with psql against `conninfo` (the test database by default) and returns its
    /// unaligned, tuples-only output (`-At`: one row a line, columns split by `|`).
    /// - Throws: when psql fails, with its words.
    @discardableResult
    public static func psql(_ sql: String, conninfo: String? = nil) throws -> String {
        let result = try runProcess(psqlPath, ["-X", "-At", "-v", "ON_ERROR_STOP=1", "-d", conninfo ?? superuser, "-c", sql])
        guard result.status == 0 else {
            throw TestSupportError("psql failed (\(result.status)) on \(sql.prefix(120)): \(result.stderr)")
        }
        return result.stdout.hasSuffix("\n") ? String(result.stdout.dropLast()) : result.stdout
    }

    /// ``superuser`` with another database.
    public static func conninfo(database: String) -> String {
        "\(superuser) dbname=\(database)"
    }
}

/// A database of its own for one test, dropped (connections and all) when released. Made from
/// template1, which has PostGIS, or from template0 for a database without it.
public final class PostgreSQLTestDatabase: @unchecked Sendable {
    public let name: String
    /// libpq conninfo of this database as superuser.
    public let conninfo: String

    public init(postgis: Bool = true) throws {
        name = PostgreSQLTestServer.uniqueName("test")
        conninfo = PostgreSQLTestServer.conninfo(database: name)
        try PostgreSQLTestServer.psql("CREATE DATABASE \(name) TEMPLATE \(postgis ? "template1" : "template0")",
                                      conninfo: PostgreSQLTestServer.conninfo(database: "postgres"))
    }

    /// A copy of `other` (`CREATE DATABASE ... TEMPLATE`): its tables, rows, triggers and
    /// sequences as they are now. Nobody may be connected to `other` meanwhile.
    public init(copyOf other: PostgreSQLTestDatabase) throws {
        name = PostgreSQLTestServer.uniqueName("test")
        conninfo = PostgreSQLTestServer.conninfo(database: name)
        try PostgreSQLTestServer.psql("CREATE DATABASE \(name) TEMPLATE \(other.name)",
                                      conninfo: PostgreSQLTestServer.conninfo(database: "postgres"))
    }

    deinit {
        _ = try? PostgreSQLTestServer.psql("DROP DATABASE IF EXISTS \(name) WITH (FORCE)",
                                           conninfo: PostgreSQLTestServer.conninfo(database: "postgres"))
    }
}
