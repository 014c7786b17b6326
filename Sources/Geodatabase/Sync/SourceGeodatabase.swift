/// A source geodatabase: a GeoPackage made sync-ready by ``SourceGeodatabase/enable(_:)``.
///
/// Schema (see `SyncSchema` for the DDL): every tracked table gets a `globalid` column
/// (added as `globalid TEXT`, or an existing column of that name in any case adopted),
/// backfilled with fresh ids, with a unique index (`pkgbuild_<table>_globalid`, unless a
/// unique index on it exists); `pkgbuild_tables`, `pkgbuild_changes`, `pkgbuild_replicas`,
/// `pkgbuild_replica_syncs`, `pkgbuild_relationships` and `pkgbuild_apply_context`.
///
/// Triggers on each tracked table T (global id column G, key K), core SQL only:
/// - `pkgbuild_guard_T` BEFORE UPDATE OF G: a non-NULL G cannot change (RAISE(ABORT)).
/// - `pkgbuild_log_T_stage` BEFORE INSERT: stages the rows the insert could replace
///   (see ``ReplaceStaging``).
/// - `pkgbuild_log_T_insert` AFTER INSERT: logs 'delete' for each staged row now gone (a
///   REPLACE's implicit delete, which fires no DELETE trigger unless `recursive_triggers` is
///   on); fills a NULL G from `randomblob`; logs (T, G, 'insert', apply context), or 'update'
///   when the row replaced one with the same G.
/// - `pkgbuild_log_T_update` AFTER UPDATE WHEN OLD.G IS NOT NULL AND some column other than
///   G changed (`OLD.c IS NOT NEW.c`): logs 'update'. An UPDATE that rewrites equal values
///   (as GDAL does for untouched fields) logs nothing.
/// - `pkgbuild_log_T_delete` AFTER DELETE: logs 'delete', the tombstone.
///
/// Generation: the source's generation is the sequence number of its last change,
/// `pkgbuild_changes.generation` (AUTOINCREMENT: never reused, read from `sqlite_sequence`),
/// 0 right after enable. A per-change number rather than a per-transaction counter because a
/// trigger cannot tell where a transaction starts; for sync the difference does not matter:
/// "changed since generation G" is `generation > G`, and a reader in one read transaction
/// sees a consistent generation. The log keeps only each row's LAST change (UNIQUE (table,
/// globalid), rewritten by DELETE + INSERT), so it grows with the rows changed, not with the edits.
///
/// Tracking and enabling use a ``Connection`` on which GDAL's `ST_*` functions are
/// registered (GDAL's R-tree triggers call them during the backfill's UPDATE).
import Foundation
import SQLite

/// One row of the source's change log: the last change of one row.
public struct SourceChange: Sendable, Hashable {
    public var generation: Int64
    public var table: String
    public var globalID: String
    public var operation: ChangeOperation
    /// The replica and sync whose upload made the change (from the apply context), nil for
    /// an edit made at the source.
    public var replicaID: String?
    public var syncID: String?
    public var changedAt: String

    public init(generation: Int64, table: String, globalID: String, operation: ChangeOperation,
                replicaID: String? = nil, syncID: String? = nil, changedAt: String = "") {
        self.generation = generation
        self.table = table
        self.globalID = globalID
        self.operation = operation
        self.replicaID = replicaID
        self.syncID = syncID
        self.changedAt = changedAt
    }
}

/// A GeoPackage as a sync source, over a connection the caller owns.
///
/// - Important: Like its ``Connection``, not thread-safe: one owner at a time.
public struct SourceGeodatabase {
    public let connection: Connection

    /// Over a connection on which the GeoPackage functions are registered.
    public init(connection: Connection) {
        self.connection = connection
    }

    /// Over an open ``GeoPackage`` (its connection has the functions GDAL's triggers call).
    public init(_ geoPackage: GeoPackage) {
        self.connection = geoPackage.connection
    }

    /// Opens the GeoPackage at `path` and makes it sync-ready (``enable(_:)``).
    /// - Throws: ``GeodatabaseError`` (`notAGeoPackage` for a missing or non-GeoPackage file,
    ///   and `enable`'s errors); `SQLiteError` (a read-only file...).
    @discardableResult
    public static func enable(path: String, _ options: EnableOptions = EnableOptions()) throws -> [TrackedTable] {
        try SourceGeodatabase(GeoPackage(path: path)).enable(options)
    }

    /// What ``enable(_:)`` does beyond the defaults.
    public struct EnableOptions: Sendable, Hashable {
        /// The tables to track; nil for every feature and attribute table of `gpkg_contents`
        /// and every Related Tables mapping table. Tables already tracked stay tracked.
        public var tables: [String]?
        /// Switch the file to WAL, so readers (an extraction) and a writer (office edits) do
        /// not block each other. Unsuitable for files on network shares.
        public var useWAL: Bool

        public init(tables: [String]? = nil, useWAL: Bool = true) {
            self.tables = tables
            self.useWAL = useWAL
        }
    }

    /// Makes the GeoPackage sync-ready, in one transaction; running it again changes nothing
    /// (triggers are recreated only when a table's columns changed since).
    /// - Parameter progress: hears, table by table, how many rows of those lacking a global
    ///   id have one so far (filling a large table is the long part of enabling).
    /// - Returns: the tracked tables.
    /// - Throws: ``GeodatabaseError`` (not a GeoPackage, unknown table, a `globalid` column
    ///   that is not text or holds duplicates) with nothing changed; `SQLiteError`.
    @discardableResult
    public func enable(_ options: EnableOptions = EnableOptions(),
                       progress: (_ table: String, _ done: Int, _ total: Int) -> Void = { _, _, _ in }) throws -> [TrackedTable] {
        let tables = try connection.withTransaction(.immediate) { () throws -> [TrackedTable] in
            guard try tableExists("gpkg_contents", in: connection) else {
                throw GeodatabaseError(.notAGeoPackage, "\(connection.path) is not a GeoPackage: it has no gpkg_contents table")
            }
            for statement in SyncSchema.commonDDL + SyncSchema.sourceDDL { try connection.execute(statement) }
            var names = try options.tables ?? defaultTrackedTableNames(connection)
            for already in try loadTrackedTables(connection)
            where !names.contains(name: SQLName(already.name)) {
                names.append(already.name)
            }
            var tables: [TrackedTable] = []
            for name in names {
                let table = try prepareTrackedTable(name, in: connection, progress: { progress(name, $0, $1) })
                let uniqueKeys = try ReplaceStaging.uniqueKeys(of: table.name, in: connection)
                for trigger in [guardTriggerSQL(table)] + Self.logTriggers(table, uniqueKeys: uniqueKeys) {
                    try installTrigger(named: trigger.name, sql: trigger.sql, in: connection)
                }
                tables.append(table)
            }
            try OwnTables.register(in: connection, side: .source)
            return tables
        }
        if try options.useWAL && connection.journalMode != .wal { try connection.setJournalMode(.wal) }
        return tables
    }

    /// Re-installs the change-log triggers of the tracked tables whose triggers no longer match
    /// their columns and UNIQUE indexes (a column added since enable would otherwise never be
    /// watched, so its edits would never travel), in one transaction. Reads only, and writes
    /// nothing, when every trigger matches (a read-only source then stays usable).
    /// - Returns: the tables whose triggers were re-installed.
    @discardableResult
    public func refreshTriggers() throws -> [String] {
        try requireEnabled()
        func expected() throws -> [(table: String, triggers: [(name: String, sql: String)])] {
            try trackedTables().map { table in
                let uniqueKeys = try ReplaceStaging.uniqueKeys(of: table.name, in: connection)
                return (table.name, [guardTriggerSQL(table)] + Self.logTriggers(table, uniqueKeys: uniqueKeys))
            }
        }
        func stale(_ trigger: (name: String, sql: String)) throws -> Bool {
            try connection.scalar("SELECT sql FROM sqlite_master WHERE type = 'trigger' AND name = ?",
                                  [.text(trigger.name)])?.stringValue != trigger.sql
        }
        guard try expected().contains(where: { try $0.triggers.contains(where: stale) }) else { return [] }
        return try connection.withTransaction(.immediate) {
            for statement in SyncSchema.commonDDL + SyncSchema.sourceDDL { try connection.execute(statement) }
            var refreshed: [String] = []
            for entry in try expected() where try entry.triggers.contains(where: stale) {
                for trigger in entry.triggers { try installTrigger(named: trigger.name, sql: trigger.sql, in: connection) }
                refreshed.append(entry.table)
            }
            return refreshed
        }
    }

    /// Rewrites the change log's operation CHECK of a source enabled before it to the form
    /// SQLite checks without a temporary b-tree per logged row (``OperationCheck``), in one
    /// transaction. Reads only, and writes nothing, when it already has it.
    public func upgradeChangeLog() throws {
        try requireEnabled()
        guard try OperationCheck.needsUpgrade(SyncSchema.changesTable, in: connection) else { return }
        try connection.withTransaction(.immediate) { try OperationCheck.upgrade(SyncSchema.changesTable, in: connection) }
    }

    /// True when ``enable(_:)`` has run on this file.
    public func isEnabled() throws -> Bool {
        try tableExists(SyncSchema.changesTable, in: connection)
    }

    /// The tracked tables.
    public func trackedTables() throws -> [TrackedTable] { try loadTrackedTables(connection) }

    /// The current generation: the sequence number of the last change, 0 before any.
    /// Read it in the same read transaction as the data it describes.
    public func generation() throws -> Int64 {
        try requireEnabled()
        return try connection.scalar("SELECT seq FROM sqlite_sequence WHERE name = 'pkgbuild_changes'")?
            .int64Value ?? 0
    }

    /// The last change of every row changed after `generation`, in generation order.
    /// - Parameters:
    ///   - excludingReplica: leave out changes whose last writer was this replica's upload
    ///     (a download must not echo a package's own changes back to it).
    ///   - tables: only these tables; nil for all.
    public func changes(since generation: Int64, excludingReplica: String? = nil,
                        tables: [String]? = nil) throws -> [SourceChange] {
        var result: [SourceChange] = []
        try forEachChange(since: generation, excludingReplica: excludingReplica, tables: tables) { result.append($0) }
        return result
    }

    /// Streams the changes ``changes(since:excludingReplica:tables:)`` returns, one at a time.
    public func forEachChange(since generation: Int64, excludingReplica: String? = nil, tables: [String]? = nil,
                              _ body: (SourceChange) throws -> Void) throws {
        try requireEnabled()
        let wanted = tables.map { Set($0.map { SQLName($0) }) }
        try connection.forEachRow("""
            SELECT generation, table_name, globalid, operation, replica_id, sync_id, changed_at
            FROM pkgbuild_changes WHERE \(Self.changesSince) ORDER BY generation
            """, [.integer(generation), excludingReplica.map(SQLiteValue.text) ?? .null]) { row in
            let table = row.value(at: 1).stringValue ?? ""
            if let wanted, !wanted.contains(SQLName(table)) { return }
            let globalID = row.value(at: 2).stringValue ?? ""
            let operation = try ChangeOperation(parsing: row.value(at: 3), in: SyncSchema.changesTable, table: table,
                                                globalID: globalID)
            try body(SourceChange(generation: row.int64(at: 0), table: table, globalID: globalID, operation: operation,
                                  replicaID: row.value(at: 4).stringValue, syncID: row.value(at: 5).stringValue,
                                  changedAt: row.value(at: 6).stringValue ?? ""))
        }
    }

    /// Checks that every change ``forEachChange(since:excludingReplica:tables:)`` streams has
    /// a known operation, so that a sync refuses a damaged log before it writes anything.
    /// - Throws: ``GeodatabaseError`` (`invalidContent`) naming the first damaged change.
    public func requireKnownOperations(since generation: Int64, excludingReplica: String? = nil,
                                       tables: [String]? = nil) throws {
        try requireEnabled()
        let wanted = tables.map { Set($0.map { SQLName($0) }) }
        let damaged = try connection.query("""
            SELECT table_name, globalid, operation FROM pkgbuild_changes
            WHERE \(Self.changesSince) AND \(ChangeOperation.unknownOperationSQL) ORDER BY generation
            """, [.integer(generation), excludingReplica.map(SQLiteValue.text) ?? .null])
        try ChangeOperation.requireKnown(damaged.filter { row in
            wanted.map { $0.contains(SQLName(row[0].stringValue ?? "")) } ?? true
        }, in: SyncSchema.changesTable)
    }

    /// The changes after generation `?1`, but those whose last writer is replica `?2` (if any).
    private static let changesSince = "generation > ?1 AND (?2 IS NULL OR replica_id IS NOT ?2)"

    func requireEnabled() throws {
        guard try isEnabled() else {
            throw GeodatabaseError(.notEnabled,
                                   "\(connection.path) is not sync-enabled; run 'pkgbuild source enable' first")
        }
    }

    /// True for our triggers and those GDAL puts on a feature table (its R-tree's, and its
    /// feature count's), which write nothing but their own tables.
    public static func isOwnOrGDALTrigger(_ name: String, on table: String, geometryColumn: String?) -> Bool {
        var known = [SQLName("pkgbuild_"), SQLName("trigger_insert_feature_count_\(table)"),
                     SQLName("trigger_delete_feature_count_\(table)")]
        if let geometryColumn {
            known.append(SQLName(GeometryColumnInfo.rtreeName(table: table, column: geometryColumn) + "_"))
        }
        return known.contains(where: SQLName(name).hasPrefix)
    }

    /// The change-log triggers of a table; `uniqueKeys` are its UNIQUE column sets (for REPLACE).
    static func logTriggers(_ table: TrackedTable, uniqueKeys: [[String]]) -> [(name: String, sql: String)] {
        let sql = LogTriggerSQL(table)
        return [sql.stageTrigger(uniqueKeys: uniqueKeys), sql.insertTrigger, sql.updateTrigger, sql.deleteTrigger]
    }
}
