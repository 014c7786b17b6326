/// The sync side of a source driver: everything `pkgbuild sync` asks of the authoritative
/// database, in the domain's terms. Sync holds the protocol (see `SyncRun`): which rows go up,
/// which come down, conflicts, retries; a driver holds its database's SQL, its locking and
/// how it refuses one row without losing the transaction.
import Geodatabase
import Geometry
import PackageFormat

/// A source a package syncs with, open for one sync.
///
/// The `forEach` methods and the row cursor call back while they stream, and the callback
/// asks the source for more (a row by global id, in the middle of the change log): a driver
/// whose client cannot interleave statements on one connection streams through a server-side
/// cursor fetched in batches, never by buffering the whole result.
///
/// - Important: One owner at a time; every call but ``isTransient(_:)`` may touch the database.
public protocol SyncSource: AnyObject {
    /// How reports and messages name the source: its address without a secret in it.
    var displayName: String { get }
    /// What the report should say about how the source was opened (a dry run's private copy).
    var notes: [String] { get }

    // MARK: Schema

    /// The tables under change tracking, as the source describes them.
    func trackedTables() throws -> [SourceTable]
    /// The spatial reference system of an srs id the source's geometries carry (as the
    /// feature source gives it); nil when the source does not define it.
    func spatialReferenceSystem(id: Int64) throws -> SpatialReferenceInfo?
    /// Brings the source's change tracking up to date with its tables (after columns were
    /// added there), and its own bookkeeping with this version.
    func refreshTracking() throws

    // MARK: Transactions

    /// Opens a transaction. Sync keeps one open at a time; it ends it with ``commit()`` or
    /// ``rollback()``.
    func begin(_ purpose: SourceTransaction) throws
    func commit() throws
    func rollback() throws
    /// True for an error that another try of the whole transaction may not meet: a lock held
    /// past the busy timeout, a serialization failure, a deadlock.
    func isTransient(_ error: any Error) -> Bool
    /// Runs `body` with the apply context set: the source's change log tags every write it
    /// makes with the replica and sync id, so the replica's next download does not take its
    /// own upload back. It runs in a write transaction of its own, committed when `body`
    /// returns, or inside the one open (a dry run's); either way a throw from `body` undoes
    /// what it wrote.
    func withApplyContext<T>(replicaID: String, syncID: String, _ body: () throws -> T) throws -> T

    // MARK: Change cursor

    /// The position of the source's change log now (in the open transaction).
    func position() throws -> SourcePosition
    /// The position a package recorded, read back from its cursor text (a package from before
    /// cursors has only its generation).
    func position(cursor: String?, generation: Int64) throws -> SourcePosition
    /// Checks that the log since `position` can be read (no damaged entry), before the sync
    /// writes anything.
    func checkChangeLog(since position: SourcePosition, excludingReplica replicaID: String, tables: [String]) throws
    /// Calls `body` for every row of `tables` changed since `position`, by anyone but
    /// `excludingReplica`'s own uploads, each row once, in the order it last changed.
    func forEachChange(since position: SourcePosition, excludingReplica replicaID: String, tables: [String],
                       _ body: (SourceRowChange) throws -> Void) throws

    // MARK: Rows

    /// The row of that global id (the shape's columns), or nil.
    func row(_ globalID: String, in table: TableShape) throws -> SourceRow?
    /// The rows of these global ids, one entry per id in its order (nil where the source has
    /// none): sync reads an upload's rows a batch at a time, and a driver whose every
    /// statement is a round trip answers a batch with one.
    func rows(_ globalIDs: [String], in table: TableShape) throws -> [SourceRow?]
    /// True when ``rows(_:in:)`` answers a batch in much less time than its rows one by one
    /// (each statement a round trip to a server): the download then reads its rows ahead, a
    /// batch at a time.
    var readsBatchesFaster: Bool { get }
    /// The global ids of the rows whose `column` equals `value` (a relationship key).
    func globalIDs(in table: TableShape, where column: String, equals value: SourceValue) throws -> [String]
    /// Every row of the table, ordered by the bytes of its global id (as SQLite orders text;
    /// a row without one first), read one at a time: memory does not grow with the table.
    func rowsByGlobalID(in table: TableShape) throws -> any SourceRowCursor
    /// Every global id of the table that is not NULL.
    func forEachGlobalID(in table: TableShape, _ body: (String) throws -> Void) throws
    /// The value of `column` in the first row of `table` whose `key` equals `value`, or nil
    /// (the source's key of a global id, or the global id of a key).
    func value(of column: String, in table: String, where key: String, equals value: SourceValue) throws -> SourceValue?
    /// The global id of a row other than `globalID` holding these values (all of them), or nil.
    func holder(of values: [(column: String, value: SourceValue)], in table: TableShape,
                besides globalID: String) throws -> String?
    /// True when the row of that global id meets the layer's filter, judged by the source
    /// as `create` judged it.
    func meets(_ filter: LayerFilter, globalID: String, in table: TableShape) throws -> Bool
    /// A layer's registered `--where` checked against the table as `create` checked it: its
    /// parse in the grammar, or (a filter from before the grammar) nil once the driver's own
    /// check let it through.
    /// - Throws: the check's refusal, naming what it refuses.
    func layerFilter(_ text: String, table: String) throws -> LayerFilter
    /// Locks the rows of these global ids (sorted: every upload locks in one order, so two
    /// cannot deadlock each other) for the rest of the write transaction, before the upload
    /// reads them: a writer that reads, reconciles and writes under row locks cannot overwrite
    /// an edit committed meanwhile. A database that locks more coarsely already (a GeoPackage's
    /// IMMEDIATE transaction) does nothing.
    func lockRows(_ globalIDs: [String], in table: TableShape) throws
    /// Writes one row, in the open write transaction. A row the source refuses leaves
    /// nothing behind and the transaction open: the outcome says why.
    func apply(_ write: SourceWrite, in table: TableShape) throws -> SourceWriteOutcome
    /// Writes these rows in their order, in the open write transaction, as ``apply(_:in:)``
    /// writes each: one outcome per write, in order; a refused row leaves nothing behind and
    /// the rows after it are still written.
    func apply(_ writes: [SourceWrite], in table: TableShape) throws -> [SourceWriteOutcome]
    /// Whether `table` stores the values written to it exactly (no trigger, type or rule of
    /// the source's rewrites them on the way in): a row uploaded as the package holds it then
    /// needs no read-back.
    func storesAsSent(_ table: TableShape) throws -> Bool

    // MARK: Replica registry

    /// Whether the package may sync, from the registry's records of its replica and syncs.
    func standing(of package: PackageSyncHistory) throws -> ReplicaStanding
    func replica(id: String) throws -> Replica?
    func retiredReplica(id: String) throws -> RetiredReplica?
    @discardableResult
    func registerReplica(_ registration: ReplicaRegistration) throws -> Replica
    /// Marks a replica registered as pending (while its package was built) active.
    func activateReplica(id: String) throws
    /// Retires a replica; `successor` names the replica that took its place.
    func unregisterReplica(id: String, by retiredBy: String, successor: String?) throws
    func recordSuccessor(_ successor: String, ofRetired id: String) throws
    /// Records a sync's id as applied for the replica, at `generation`.
    func recordSync(replicaID: String, syncID: String, generation: Int64) throws
    /// Notes, outside any sync transaction, why a package was refused.
    func noteRefusal(replicaID: String, syncID: String?, _ refusal: ReplicaStanding.Refusal) throws
    /// Records the conflicts a sync settled, with its id, in the write transaction.
    func recordConflicts(_ conflicts: [Conflict], syncID: String) throws
    /// The conflicts recorded with a sync's id (for its re-run).
    func conflicts(ofSync syncID: String) throws -> [Conflict]
}

extension SyncSource {
    /// Nothing to lock: the write transaction holds the whole source.
    public func lockRows(_ globalIDs: [String], in table: TableShape) throws {}

    /// One ``row(_:in:)`` each: a database on the same machine answers those fast.
    public func rows(_ globalIDs: [String], in table: TableShape) throws -> [SourceRow?] {
        try globalIDs.map { try row($0, in: table) }
    }

    /// A database on the same machine: rows are read as they are needed.
    public var readsBatchesFaster: Bool { false }

    /// Not known: every uploaded row is read back.
    public func storesAsSent(_ table: TableShape) throws -> Bool { false }

    /// One ``apply(_:in:)`` each.
    public func apply(_ writes: [SourceWrite], in table: TableShape) throws -> [SourceWriteOutcome] {
        try writes.map { try apply($0, in: table) }
    }

    /// Runs `body` in a transaction: committed when it returns, rolled back when it throws.
    public func withTransaction<T>(_ purpose: SourceTransaction, _ body: () throws -> T) throws -> T {
        try begin(purpose)
        do {
            let result = try body()
            try commit()
            return result
        } catch {
            try? rollback()
            throw error
        }
    }
}

/// Rows read one at a time (``SyncSource/rowsByGlobalID(in:)``).
public protocol SourceRowCursor: AnyObject {
    /// The next row, nil at the end.
    func next() throws -> SourceRow?
}
