import GeoPackageSource
import Geodatabase
import PostgreSQLSource
import SourceDrivers

/// The registry the administrator's verbs (`source replicas`, `status`, `unregister`, `prune`)
/// work on: a source GeoPackage's, or a PostgreSQL schema's (a `PG:` or libpq address).
extension SourceCommand {
    /// The positional of the verbs that take either kind of source.
    static let anySourceArgument = ArgumentDefinition.positional(
        "source", valueName: "SRC",
        help: "The source: a GeoPackage, or a PostgreSQL schema (PG:\"dbname=... schemas=...\" or postgresql://...?schemas=...).")

    /// Whether `source` is a PostgreSQL address (by its form only).
    static func isPostgreSQL(_ source: String) -> Bool { PostgreSQLSourceDriver().accepts(source) }

    /// How messages name a source: a PostgreSQL address without its password, a path as given.
    static func shown(_ source: String) -> String { isPostgreSQL(source) ? SourceAddress.redacted(source) : source }

    /// The registry of the source at `source`, for listing (`busyTimeout` nil) or for retiring.
    /// - Throws: ``GeodatabaseError`` for a path that is no GeoPackage; ``SourceError`` for a
    ///   PostgreSQL source that cannot be reached or is not sync-enabled.
    static func openRegistry(_ source: String, busyTimeout: Double? = nil) throws -> any ReplicaAdministration {
        if isPostgreSQL(source) { return try PostgreSQLSourceAdministration(source).registry() }
        let geoPackage = try busyTimeout.map { try open(source, busyTimeout: $0) } ?? openForReading(source)
        return GeoPackageReplicaAdministration(SourceGeodatabase(connection: geoPackage.connection))
    }
}
