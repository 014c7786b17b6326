/// A sync source that is plain Swift values: tables and rows by global id, a change log, a
/// replica registry, transactions that snapshot and restore them. No SQLite underneath, so a
/// sync run against it shows that `Sync` asks nothing of its source that the `SyncSource`
/// protocol does not say. Rows are in `InMemorySource+Rows.swift`, the registry in
/// `+Registry.swift`, filters in `InMemoryFilter.swift`, the create side in
/// `InMemoryFeatureSource.swift`.
import Geodatabase
import Geometry
import PackageFormat
import SourceDrivers

/// One table of the in-memory source: its description, its constraints and its rows.
struct InMemoryTable: Sendable {
    var shape: SourceTable
    /// Column sets no two rows may hold the same values in (NULLs never collide, as in SQL).
    var uniqueColumnSets: [[String]]
    /// Columns a row may not leave NULL (the key is numbered by the source instead).
    var notNullColumns: Set<String>
    /// Rows by global id, every column of `shape` in each.
    var rows: [String: [String: SourceValue]] = [:]
    /// The key the next inserted row gets.
    var nextKey: Int64 = 1
}

/// The last change of one row, as the log keeps it.
struct InMemoryChange: Sendable, Hashable {
    var generation: Int64
    /// The replica and sync of the apply context the write was made in; nil for an office edit.
    var replicaID: String?
    var syncID: String?
}

/// Everything the source holds: one value, so a transaction is a copy of it.
struct InMemoryState: Sendable {
    var tables: [InMemoryTable] = []
    var crs: [Int64: SpatialReferenceInfo] = [:]
    /// Only grows: one step per write.
    var generation: Int64 = 0
    /// A copy of a GeoPackage continues its log: a package built from that GeoPackage holds
    /// its cursor, the generation's text, which this source then reads as its own generation.
    var continuesGeoPackageLog = false
    /// By table (as the source spells it) and global id: the last change of each row.
    var changes: [RowKey: InMemoryChange] = [:]
    var registry = InMemoryRegistry()
    /// What `create` reads besides the tables (`InMemoryFeatureSource.swift`).
    var featureRecords = InMemoryFeatureRecords()
}

/// An in-memory source, open for any number of syncs (the driver hands out the one instance).
///
/// - Important: One owner at a time, as the protocol says; tests run it from one task.
final class InMemorySource: SyncSource, @unchecked Sendable {
    let name: String
    var state = InMemoryState()
    /// Snapshots of the state at each open transaction and savepoint, innermost last.
    private var snapshots: [InMemoryState] = []
    /// What the open transaction is for: a read one may not write.
    private(set) var purpose: SourceTransaction?
    /// The apply context while a sync writes.
    private(set) var context: (replicaID: String, syncID: String)?
    /// How many more `begin`s fail as if another writer held the lock (a transient error).
    var busyBegins = 0
    /// How many more commits fail as a serialization failure does: the transaction is rolled
    /// back, and another try of it may succeed.
    var failingCommits = 0
    /// How many transactions were begun, committed and rolled back (outermost ones).
    private(set) var transactionCounts = (begun: 0, committed: 0, rolledBack: 0)

    init(name: String) {
        self.name = name
    }

    var displayName: String { "memory:\(name)" }
    var notes: [String] { [] }
    var isInTransaction: Bool { !snapshots.isEmpty }

    // MARK: Schema

    func trackedTables() throws -> [SourceTable] { state.tables.map(\.shape) }

    func spatialReferenceSystem(id: Int64) throws -> SpatialReferenceInfo? { state.crs[id] }

    /// Every column is tracked as it is: there are no triggers to bring up to date.
    func refreshTracking() throws {}

    // MARK: Transactions

    func begin(_ purpose: SourceTransaction) throws {
        if busyBegins > 0 {
            busyBegins -= 1
            throw InMemoryBusy()
        }
        guard snapshots.isEmpty else { throw InMemorySourceError("\(displayName): a transaction is already open") }
        snapshots.append(state)
        self.purpose = purpose
        transactionCounts.begun += 1
    }

    func commit() throws {
        guard snapshots.count == 1 else { throw InMemorySourceError("\(displayName): commit with \(snapshots.count) transactions open") }
        if failingCommits > 0 {
            failingCommits -= 1
            try rollback()
            throw InMemoryBusy()
        }
        snapshots.removeAll()
        purpose = nil
        transactionCounts.committed += 1
    }

    /// As SQLite's: a rollback with nothing open does nothing.
    func rollback() throws {
        guard let first = snapshots.first else { return }
        state = first
        snapshots.removeAll()
        purpose = nil
        context = nil
        transactionCounts.rolledBack += 1
    }

    func isTransient(_ error: any Error) -> Bool { error is InMemoryBusy }

    /// In its own transaction when none is open, else in a savepoint of the one open; a throw
    /// restores the state the body started from either way.
    func withApplyContext<T>(replicaID: String, syncID: String, _ body: () throws -> T) throws -> T {
        guard context == nil else { throw InMemorySourceError("\(displayName): an apply context is already set") }
        try requireWritable("an apply context")
        let outermost = snapshots.isEmpty
        if outermost { try begin(.write) } else { snapshots.append(state) }
        context = (replicaID, syncID)
        do {
            let result = try body()
            context = nil
            if outermost { try commit() } else { snapshots.removeLast() }
            return result
        } catch {
            context = nil
            if outermost { try rollback() } else { state = snapshots.removeLast() }
            throw error
        }
    }

    // MARK: Change cursor

    /// The cursor is not the generation's text on purpose: sync must keep it as it is given.
    func position() throws -> SourcePosition {
        SourcePosition(cursor: "mem:\(state.generation)", generation: state.generation)
    }

    /// A package from before cursors has only its generation, one built from the GeoPackage
    /// this source copies that GeoPackage's cursor; a cursor of another form is not this
    /// source's.
    func position(cursor: String?, generation: Int64) throws -> SourcePosition {
        guard let cursor else { return SourcePosition(cursor: "mem:\(generation)", generation: generation) }
        if state.continuesGeoPackageLog, let read = Int64(cursor) {
            return SourcePosition(cursor: "mem:\(read)", generation: read)
        }
        guard cursor.hasPrefix("mem:"), let read = Int64(cursor.dropFirst(4)) else {
            throw SourceError(.unusable, "\(displayName): cursor '\(cursor)' is not one this source wrote")
        }
        return SourcePosition(cursor: cursor, generation: read)
    }

    /// Every entry of the log is typed: nothing in it can be damaged.
    func checkChangeLog(since position: SourcePosition, excludingReplica replicaID: String, tables: [String]) throws {}

    func forEachChange(since position: SourcePosition, excludingReplica replicaID: String, tables: [String],
                       _ body: (SourceRowChange) throws -> Void) throws {
        let wanted = Set(tables.map { SQLName($0) })
        let changed = state.changes.filter { key, change in
            change.generation > position.generation && change.replicaID != replicaID && wanted.contains(key.table)
        }
        for (key, _) in changed.sorted(by: { $0.value.generation < $1.value.generation }) {
            try body(SourceRowChange(table: tableName(key.table), globalID: key.globalID))
        }
    }

    /// A write in a read transaction is sync's mistake (a download writes nothing at the source).
    func requireWritable(_ what: String) throws {
        if purpose == .read { throw InMemorySourceError("\(displayName): \(what) in a read transaction") }
    }

    /// Logs a write of one row: the generation steps on, tagged with the apply context.
    func logChange(table: String, globalID: String) {
        state.generation += 1
        state.changes[RowKey(table, globalID)] = InMemoryChange(generation: state.generation, replicaID: context?.replicaID,
                                                                syncID: context?.syncID)
    }

    /// The table's name as the source spells it.
    private func tableName(_ name: SQLName) -> String {
        state.tables.first { SQLName($0.shape.name) == name }?.shape.name ?? name.text
    }
}

/// A lock another writer holds (what `busyBegins` simulates): worth another try.
struct InMemoryBusy: Error {}

/// A misuse of the in-memory source (a call the protocol does not allow): a failure, not a refusal.
struct InMemorySourceError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
