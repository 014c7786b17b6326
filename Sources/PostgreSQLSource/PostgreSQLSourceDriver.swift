/// The PostgreSQL/PostGIS driver: a schema of a PostgreSQL database as a source, addressed as
/// libpq addresses it (`postgresql://user@host/dbname?schemas=field`) or as GDAL does
/// (`PG:"host=… dbname=… schemas=field"`). libpq finds what the address leaves out as `psql`
/// does (`PGPASSWORD`, `~/.pgpass`, `PGSERVICE`); a password is never stored or shown.
import PostgreSQL
import SourceDrivers

/// Opens PostgreSQL sources.
public struct PostgreSQLSourceDriver: SourceDriver {
    public init() {}

    public var name: String { "PostgreSQL" }

    /// GDAL's `PG:` form and libpq's URIs.
    public func accepts(_ address: String) -> Bool {
        Self.isPostgreSQLAddress(address)
    }

    static func isPostgreSQLAddress(_ address: String) -> Bool {
        let lowered = address.lowercased()
        return lowered.hasPrefix("pg:") || lowered.hasPrefix("postgresql://") || lowered.hasPrefix("postgres://")
    }

    public func openSyncSource(_ address: String, options: SourceOpenOptions) throws -> any SyncSource {
        let database = try SourceDatabase.connect(address)
        guard try database.isEnabled() else {
            throw SourceError(.notEnabled, "source \(database.displayName) is not sync-enabled (run 'pkgbuild source enable' on it)")
        }
        return try PostgreSQLSyncSource(database, options: options)
    }

    public func openFeatureSource(_ address: String) throws -> any FeatureSource {
        try PostgreSQLFeatureSource(SourceDatabase.connect(address))
    }
}
