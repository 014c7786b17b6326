@testable import Geodatabase
import SQLite

/// A source's tables with row counts, its generation, replicas and relationships: what the
/// registry tests read back in one transaction.
struct SourceStatus: Sendable, Hashable {
    struct Table: Sendable, Hashable {
        var name: String
        var rowCount: Int64
        var globalIDColumn: String
    }

    var path: String
    var generation: Int64
    var tables: [Table]
    var replicas: [Replica]
    var relationships: [Relationship]
}

extension SourceGeodatabase {
    /// - Throws: `GeodatabaseError(.notEnabled)` for a source that is not sync-enabled.
    func status() throws -> SourceStatus {
        try requireEnabled()
        return try connection.withTransaction {
            let tables = try trackedTables().map { table in
                SourceStatus.Table(name: table.name,
                                   rowCount: try connection.scalar("SELECT count(*) FROM \(SQL.identifier(table.name))")?
                                       .int64Value ?? 0,
                                   globalIDColumn: table.globalIDColumn)
            }
            return SourceStatus(path: connection.path, generation: try generation(), tables: tables,
                                replicas: try replicas(), relationships: try readRelationships(connection))
        }
    }
}
