/// One connection to a PostgreSQL source and the schema its tables are in, checked as every
/// command needs it: the server answers, the login is accepted, PostGIS is installed, the
/// schema exists. Each failure is a `SourceError` naming the source without its password.
import PostgreSQL
import SourceDrivers

/// A connected PostgreSQL source.
final class SourceDatabase {
    let connection: Connection
    /// The schema of the source's tables (`schemas=`, default `public`).
    let schema: String
    /// The address without secrets, for messages: `PostgreSQL (host=… dbname=… schema=…)`.
    let displayName: String

    private init(connection: Connection, displayName: String) {
        self.connection = connection
        self.schema = connection.info.schema
        self.displayName = displayName
    }

    /// Connects and checks the database is one a source can be.
    /// - Throws: ``SourceError``: `notFound` for a server that does not answer, a database
    ///   or schema that is not there; `unusable` for a refused login or a database without
    ///   PostGIS.
    static func connect(_ address: String) throws -> SourceDatabase {
        let info: ConnectionInfo
        do { info = try ConnectionInfo(address) } catch {
            throw SourceError(.unusable, "source \(SourceAddress.redacted(address)): \(error)")
        }
        let name = "PostgreSQL (\(info.withoutSecrets))"
        let connection: Connection
        do { connection = try Connection(info) } catch let error as PostgreSQLError {
            throw SourceError(error.isUnreachable || error.sqlState == SQLState.invalidCatalogName ? .notFound : .unusable,
                              "source \(name): \(error.message)")
        }
        let database = SourceDatabase(connection: connection, displayName: name)
        try database.checkUsable()
        return database
    }

    /// PostGIS installed, the schema there; every session in UTC with ISO dates, so that
    /// timestamps and dates cross as the same text whoever reads them.
    private func checkUsable() throws {
        try connection.execute("SET TimeZone = 'UTC'; SET DateStyle = 'ISO, YMD'; SET IntervalStyle = 'iso_8601'; SET extra_float_digits = 3")
        guard try connection.queryFirst("SELECT 1 FROM pg_extension WHERE extname = 'postgis'") != nil else {
            throw SourceError(.unusable, "source \(displayName): the database has no PostGIS (CREATE EXTENSION postgis; needs PostGIS 3)")
        }
        guard try connection.queryFirst("SELECT 1 FROM pg_namespace WHERE nspname = $1", [.text(schema)]) != nil else {
            throw SourceError(.notFound, "source \(displayName): the schema '\(schema)' does not exist")
        }
    }

    /// Whether `pkgbuild source enable` prepared the source's schema.
    func isEnabled() throws -> Bool {
        try connection.queryFirst("""
            SELECT 1 FROM pkgbuild.tables WHERE table_schema = $1 LIMIT 1
            """, [.text(schema)], orNilIfMissing: true) != nil
    }

    /// A table of the source's schema, quoted and qualified.
    func qualified(_ table: String) -> String { PostgreSQLQuoting.qualified(schema, table) }
}

extension Connection {
    /// ``queryFirst(_:_:results:)``, nil when a table it reads does not exist.
    func queryFirst(_ sql: String, _ parameters: [Parameter], orNilIfMissing: Bool) throws -> Row? {
        do { return try queryFirst(sql, parameters) } catch let error as PostgreSQLError where orNilIfMissing && (error.isUndefinedTable || error.sqlState == "3F000") {
            return nil
        }
    }
}
