/// A sync-enabled GeoPackage as a sync source: its schema, its transactions and its change
/// cursor (the integer generation of `pkgbuild_changes`). Rows are in
/// `GeoPackageSyncSource+Rows.swift`, the replica registry in `+Registry.swift`.
import Geodatabase
import Geometry
import PackageFormat
import SQLite
import SourceDrivers

/// One GeoPackage source, open for one sync.
///
/// - Important: Holds a connection and its prepared statements: one owner at a time.
public final class GeoPackageSyncSource: SyncSource {
    public let displayName: String
    let connection: Connection
    let geodatabase: SourceGeodatabase
    let rows: RowStore
    let statements: StatementCache
    /// Per filtered table: the query testing one row against its filter, rendered once.
    var filterQueries: [SQLName: String] = [:]
    /// A dry run's copy of a read-only file, kept as long as the source is open.
    private let copies: DryRunCopies
    private var schema: GeoPackageSchema?
    /// How the upload in the apply context is logged (`+UploadLog.swift`).
    var uploadLog = UploadLogging.outsideApplyContext

    /// Page cache during a sync, in KiB. Measured at 200,000 and 1,000,000 features: 6 MiB
    /// syncs as fast as 16 MiB (what a miss costs is a copy from the OS's page cache, and a
    /// spilled page one write), and the sync's peak memory stays flat (see the README).
    static let cacheKiB = 6_144

    init(path: String, displayName: String, options: SourceOpenOptions, copies: DryRunCopies) throws {
        self.displayName = displayName
        self.copies = copies
        let geoPackage = try GeoPackage(path: path, readOnly: options.readOnly, busyTimeout: options.busyTimeout)
        connection = geoPackage.connection
        if !options.readOnly {
            try connection.execute("PRAGMA cache_size = -\(Self.cacheKiB)")
            // Statement journals and the temporary tables of trigger programs in memory: each
            // holds what one statement of the upload touches (a row, its R-tree nodes and its
            // log entry), where on disk they cost a write call per page journaled (600,000 at
            // the 200,000-feature bench). Sorts still spill to temporary files past the cache.
            try connection.execute("PRAGMA temp_store = MEMORY")
        }
        geodatabase = SourceGeodatabase(connection: connection)
        rows = RowStore(connection: connection)
        statements = StatementCache(connection)
    }

    /// What the report should say about how the source was opened (a dry run's copy).
    public var notes: [String] { copies.notes }

    // MARK: Schema

    public func trackedTables() throws -> [SourceTable] {
        let schema = try readSchema()
        return try geodatabase.trackedTables().map { tracked in
            let declared = try connection.query("SELECT name, type FROM pragma_table_info(?)", [.text(tracked.name)])
            let columns = declared.map { row in
                let type = row[1].stringValue ?? ""
                return FeatureColumn(name: row[0].stringValue ?? "", declaredType: type, baseType: BaseType(geoPackageType: type))
            }
            let geometry = schema.layer(named: tracked.name)?.geometryColumn
            return SourceTable(name: tracked.name, keyColumn: tracked.keyColumn, globalIDColumn: tracked.globalIDColumn,
                               columns: columns, geometry: geometry)
        }
    }

    public func spatialReferenceSystem(id: Int64) throws -> SpatialReferenceInfo? {
        try readSchema().spatialReferenceSystem(id: id)
    }

    public func refreshTracking() throws {
        try geodatabase.refreshTriggers()
        try geodatabase.upgradeChangeLog()
        // Sources registered by earlier versions carry our extension on their user tables.
        try OwnTables.register(in: connection, side: .source)
        schema = nil
    }

    func readSchema() throws -> GeoPackageSchema {
        if let schema { return schema }
        let read = try GeoPackageSchema.read(from: connection)
        schema = read
        return read
    }

    // MARK: Transactions

    public func begin(_ purpose: SourceTransaction) throws {
        try connection.execute(purpose == .write ? "BEGIN IMMEDIATE" : "BEGIN")
    }

    public func commit() throws { try connection.execute("COMMIT") }

    /// SQLite may have rolled back by itself already (SQLITE_FULL, SQLITE_IOERR...).
    public func rollback() throws {
        if connection.isInTransaction { try connection.execute("ROLLBACK") }
    }

    public func isTransient(_ error: any Error) -> Bool {
        (error as? SQLiteError)?.isBusy ?? false
    }

    /// The upload's log triggers, dropped at its first write (``UploadLogging``), are back
    /// before the context ends; when `body` throws, the rollback brings them back.
    public func withApplyContext<T>(replicaID: String, syncID: String, _ body: () throws -> T) throws -> T {
        try ApplyContext.with(replicaID: replicaID, syncID: syncID, on: connection) {
            uploadLog = .undecided
            defer { uploadLog = .outsideApplyContext }
            let result = try body()
            try endDeferredLogging()
            return result
        }
    }

    // MARK: Change cursor

    public func position() throws -> SourcePosition {
        let generation = try geodatabase.generation()
        return SourcePosition(cursor: String(generation), generation: generation)
    }

    /// A package from before cursors has only its generation; a cursor that is not a
    /// generation was written by another backend's driver, and reading changes from a guess
    /// could skip some for ever, so it is refused.
    /// - Throws: ``SourceError`` (`unusable`) naming the cursor.
    public func position(cursor: String?, generation: Int64) throws -> SourcePosition {
        guard let cursor else { return SourcePosition(cursor: String(generation), generation: generation) }
        guard let read = Int64(cursor) else {
            throw SourceError(.unusable, "source \(displayName): the package's change-log position '\(cursor)' was not written by a GeoPackage source")
        }
        return SourcePosition(cursor: cursor, generation: read)
    }

    public func checkChangeLog(since position: SourcePosition, excludingReplica replicaID: String, tables: [String]) throws {
        try geodatabase.requireKnownOperations(since: position.generation, excludingReplica: replicaID, tables: tables)
    }

    public func forEachChange(since position: SourcePosition, excludingReplica replicaID: String, tables: [String],
                              _ body: (SourceRowChange) throws -> Void) throws {
        try geodatabase.forEachChange(since: position.generation, excludingReplica: replicaID, tables: tables) { change in
            try body(SourceRowChange(table: change.table, globalID: change.globalID))
        }
    }
}
