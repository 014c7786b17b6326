/// The PostgreSQL source as the administrator's verbs open it (`pkgbuild source replicas`,
/// `status`, `unregister`, `prune`): connected and checked as every command does it
/// (``SourceDatabase``), its registry that of the address's schema.
import Geodatabase
import PostgreSQL
import SourceDrivers

extension ReplicaRegistry: ReplicaAdministration {}

/// A PostgreSQL source opened for administration.
///
/// - Important: One owner at a time, as its connection.
public final class PostgreSQLSourceAdministration {
    let database: SourceDatabase

    /// Connects to `address` (a `PG:` or libpq address).
    /// - Throws: ``SourceError`` naming the source and the problem (see ``SourceDatabase``).
    public init(_ address: String) throws {
        database = try SourceDatabase.connect(address)
    }

    /// The address without secrets: `PostgreSQL (host=… dbname=… schema=…)`.
    public var displayName: String { database.displayName }

    /// The schema whose replicas the registry holds.
    public var schema: String { database.schema }

    public func isEnabled() throws -> Bool { try database.isEnabled() }

    /// The replica registry of the address's schema.
    /// - Throws: ``SourceError`` (`notEnabled`) for a schema `source enable` did not prepare.
    public func registry() throws -> any ReplicaAdministration {
        try requireEnabled()
        return ReplicaRegistry(connection: database.connection, sourceSchema: database.schema, displayName: displayName)
    }

    /// Prunes the change log of the whole database, first retiring the replicas (of every
    /// schema) unused for longer than `expireAfterSeconds` whose position the prune passes.
    /// - Throws: ``SourceError``: `notEnabled`; `unusable` with the server's refusal (a
    ///   permission the user lacks...), nothing changed.
    public func prune(expireAfterSeconds: Int?) throws -> LogPruning.Outcome {
        try requireEnabled()
        return try naming("nothing was pruned") {
            try LogPruning.prune(database.connection, expireAfterSeconds: expireAfterSeconds, displayName: displayName)
        }
    }

    /// Runs `body`, a refusal of the server reported as the source's, with what it means.
    func naming<T>(_ consequence: String, _ body: () throws -> T) throws -> T {
        do { return try body() } catch let error as PostgreSQLError {
            throw SourceError(.unusable, "source \(displayName): \(error.message); \(consequence)")
        }
    }

    func requireEnabled() throws {
        guard try database.isEnabled() else {
            throw SourceError(.notEnabled, "source \(displayName) is not sync-enabled (run 'pkgbuild source enable' on it)")
        }
    }
}
