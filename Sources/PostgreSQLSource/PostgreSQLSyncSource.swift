/// A PostgreSQL schema as a sync source: its tracked tables, its transactions and the apply
/// context. The change cursor is in `+Changes.swift`, rows in `+Rows.swift`, writes in
/// `RowWriter.swift`, the replica registry in `+Registry.swift`.
///
/// Transactions: an upload runs READ COMMITTED and locks the rows it will read and write
/// first (`lockRows`, in global-id order), so a read-reconcile-write never overwrites an
/// office edit committed meanwhile, and overlapping uploads wait for each other rather than
/// abort (a deadlock with an office writer, or a lock held past the timeout, is an error
/// `isTransient` tells sync to retry whole); a download runs REPEATABLE READ READ ONLY, one
/// snapshot for the rows and the log.
import Geodatabase
import Geometry
import PackageFormat
import PostgreSQL
import SourceDrivers

/// One PostgreSQL source, open for one sync.
///
/// - Important: Holds one connection: one owner at a time.
public final class PostgreSQLSyncSource: SyncSource {
    let database: SourceDatabase
    var connection: Connection { database.connection }
    let registry: ReplicaRegistry
    let options: SourceOpenOptions
    /// The tracked tables as the catalog describes them, by name; read on first use.
    private var tables: [String: TrackedTable]?
    var writer: RowWriter?

    init(_ database: SourceDatabase, options: SourceOpenOptions) throws {
        self.database = database
        self.options = options
        registry = ReplicaRegistry(connection: database.connection, sourceSchema: database.schema)
        // A sync that waits longer than its busy timeout for a row lock gives up (and retries).
        try database.connection.execute("SET lock_timeout = '\(Int(options.busyTimeout * 1000))ms'")
        // verify: nothing can be written, whatever a bug might try.
        if options.readOnly { try database.connection.execute("SET default_transaction_read_only = on") }
    }

    public var displayName: String { database.displayName }

    /// A dry run writes in a transaction sync rolls back; nothing is copied.
    public var notes: [String] { [] }

    // MARK: Schema

    public func trackedTables() throws -> [SourceTable] {
        try trackedTableMap().values.sorted { $0.catalog.name < $1.catalog.name }.map(\.sourceTable)
    }

    public func spatialReferenceSystem(id: Int64) throws -> SpatialReferenceInfo? {
        try SpatialReferenceCatalog.system(id: id, on: connection)
    }

    /// Regenerates the triggers of every tracked table whose columns changed since they were
    /// made (an update's changed columns then include the added ones), in one transaction
    /// under an advisory lock, so that concurrent syncs do not rewrite the same functions.
    public func refreshTracking() throws {
        tables = nil
        let stale = try trackedTableMap().values.map(triggers).filter { !(try $0.isInstalled(on: connection)) }
        guard !stale.isEmpty else { return }
        try connection.withTransaction {
            _ = try connection.query("SELECT pg_advisory_xact_lock(\(Self.trackingLock))")
            for triggers in stale where !(try triggers.isInstalled(on: connection)) {
                for statement in triggers.statements { try connection.execute(statement) }
            }
        }
        tables = nil
    }

    /// The advisory lock key of trigger maintenance ("pkgb" in ASCII).
    static let trackingLock = 0x706B_6762

    private func triggers(_ table: TrackedTable) -> ChangeLogTriggers {
        ChangeLogTriggers(schema: database.schema, table: table.catalog.name, globalIDColumn: table.globalIDColumn,
                          columns: table.catalog.columns.map(\.name))
    }

    /// Table name -> the tracked table, from `pkgbuild.tables` and the catalog.
    func trackedTableMap() throws -> [String: TrackedTable] {
        if let tables { return tables }
        var read: [String: TrackedTable] = [:]
        for row in try connection.query("""
            SELECT table_name, key_column, globalid_column FROM pkgbuild.tables WHERE table_schema = $1 ORDER BY table_name
            """, [.text(database.schema)]) {
            let name = row.string(0) ?? ""
            guard let catalog = try Catalog.table(name, in: database.schema, on: connection) else {
                throw SourceError(.unusable, "source \(displayName): the tracked table \(name) is no longer there")
            }
            read[name] = TrackedTable(catalog: catalog, keyColumn: row.string(1) ?? "", globalIDColumn: row.string(2) ?? "")
        }
        tables = read
        return read
    }

    /// The tracked table `name`.
    /// - Throws: ``SourceError`` for a table that is not tracked.
    func tracked(_ name: String) throws -> TrackedTable {
        guard let table = try trackedTableMap()[name] else {
            throw SourceError(.unusable, "source \(displayName): table \(name) is not tracked")
        }
        return table
    }

    // MARK: Transactions

    public func begin(_ purpose: SourceTransaction) throws {
        switch purpose {
        case .write: try connection.execute("BEGIN ISOLATION LEVEL READ COMMITTED")
        case .read: try connection.execute("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
        }
        writer = purpose == .write ? RowWriter(connection: connection) : nil
    }

    public func commit() throws {
        writer = nil
        try connection.commit()
    }

    public func rollback() throws {
        writer = nil
        if connection.isInTransaction { try connection.execute("ROLLBACK") }
    }

    public func isTransient(_ error: any Error) -> Bool {
        guard let error = error as? PostgreSQLError else { return false }
        // 55P03: the lock timeout passed while another transaction held a row.
        return error.isRetryable || error.sqlState == "55P03"
    }

    /// The context is two transaction-local settings the triggers read (`set_config(…, true)`),
    /// gone with the transaction whatever happens.
    public func withApplyContext<T>(replicaID: String, syncID: String, _ body: () throws -> T) throws -> T {
        let ownTransaction = !connection.isInTransaction
        if ownTransaction { try begin(.write) }
        do {
            _ = try connection.query("SELECT set_config('pkgbuild.replica_id', $1, true), set_config('pkgbuild.sync_id', $2, true)",
                                     [.text(replicaID), .text(syncID)])
            let result = try body()
            try writer?.finish()
            _ = try connection.query("SELECT set_config('pkgbuild.replica_id', '', true), set_config('pkgbuild.sync_id', '', true)")
            if ownTransaction { try commit() }
            return result
        } catch {
            if ownTransaction { try? rollback() }
            throw error
        }
    }
}

/// A tracked table: the catalog's description and the columns tracking uses.
struct TrackedTable {
    var catalog: CatalogTable
    var keyColumn: String
    var globalIDColumn: String

    var sourceTable: SourceTable {
        SourceTable(name: catalog.name, keyColumn: keyColumn, globalIDColumn: globalIDColumn,
                    columns: catalog.columns.map(\.feature), geometry: catalog.geometry)
    }

    /// The column of that name (the exact spelling first, then in any letter case).
    func column(_ name: String) -> SourceColumn? {
        catalog.columns.first { $0.name == name } ?? catalog.columns.first { $0.name.lowercased() == name.lowercased() }
    }
}
