/// The local changes a sync carries, read from the package's change log as they are needed,
/// never all held at once: a season's edits of a large package, each with its base and current
/// row, would take more memory than a field laptop spares. What a sync keeps of them is keys.
import Geodatabase
import PackageFormat
import SQLite

/// The changes through the position the pending sync recorded (later ones wait for the next
/// sync), table by table in the order the upload writes them: link tables last, as the rows
/// they link may be inserted by the same upload.
struct CarriedChanges {
    let tracking: PackageChangeTracking
    let throughPosition: Int64
    /// Rows whose base is unknown (``NoBaseRows``): they reconcile as changed on both sides.
    let unbased: Set<RowKey>
    let tablesByName: [SQLName: SyncTable]
    /// The tracked tables in upload order.
    let tableOrder: [String]
    /// How many change records the log holds through the position (an update that changed
    /// nothing among them, which is no change).
    let recordCount: Int

    init(tracking: PackageChangeTracking, package: Connection, through throughPosition: Int64,
         tables: [SyncTable], isMapping: (SyncTable) -> Bool) throws {
        self.tracking = tracking
        self.throughPosition = throughPosition
        unbased = try NoBaseRows.all(in: package)
        tablesByName = Dictionary(tables.map { ($0.sqlName, $0) }, uniquingKeysWith: { a, _ in a })
        // The log's table order, as the changes always went up, links moved last.
        let byName = tablesByName
        let logged = try tracking.trackedTables().map(\.name)
        let mapping = Set(logged.filter { byName[SQLName($0)].map(isMapping) ?? false })
        tableOrder = logged.filter { !mapping.contains($0) } + logged.filter { mapping.contains($0) }
        recordCount = Int(try package.scalar("SELECT count(*) FROM \(SyncSchema.editsTable) WHERE position <= ?",
                                             [.integer(throughPosition)])?.int64Value ?? 0)
    }

    /// Streams the carried changes, in batches of at most `batchSize` of one table each.
    /// - Parameter included: the tables to stream (nil: all).
    /// - Returns: the records among them that changed nothing (rows saved back to their base),
    ///   for ``PackageChangeTracking/forget(_:)`` once the stream is over.
    @discardableResult
    func forEachBatch(of batchSize: Int, in included: ((SyncTable) -> Bool)? = nil,
                      _ body: (SyncTable, [PendingChange]) throws -> Void) throws -> [UnchangedEdit] {
        var unchanged: [UnchangedEdit] = []
        var batch: [PendingChange] = []
        var batchTable: SyncTable?
        batch.reserveCapacity(batchSize)
        func flush() throws {
            if let table = batchTable, !batch.isEmpty { try body(table, batch) }
            batch.removeAll(keepingCapacity: true)
        }
        let byName = tablesByName
        let streamed = included.map { included in tableOrder.filter { byName[SQLName($0)].map(included) ?? false } } ?? tableOrder
        try tracking.forEachPendingChange(tables: streamed, positions: Int64.min...throughPosition,
                                          unchanged: { noteUnchanged($0, in: &unchanged) }) { change in
            guard let table = tablesByName[SQLName(change.table)] else { return }
            if batchTable?.sqlName != table.sqlName || batch.count == batchSize {
                try flush()
                batchTable = table
            }
            batch.append(unbased.contains(RowKey(change.table, change.globalID)) ? change.withoutBase(table) : change)
        }
        try flush()
        return unchanged
    }

    /// The keys of every carried change (of a table the sync does not know too), and the
    /// records that changed nothing, as ``forEachBatch(of:_:)`` gives them.
    func keys() throws -> (keys: [RowKey], unchanged: [UnchangedEdit]) {
        var keys: [RowKey] = [], unchanged: [UnchangedEdit] = []
        try tracking.forEachPendingChange(tables: tableOrder, positions: Int64.min...throughPosition,
                                          unchanged: { noteUnchanged($0, in: &unchanged) }) { change in
            keys.append(RowKey(change.table, change.globalID))
        }
        return (keys, unchanged)
    }

    /// A record that changed nothing is forgotten, unless its row has no base (such a row
    /// reconciles as changed on both sides, and is not streamed as unchanged either).
    private func noteUnchanged(_ edit: UnchangedEdit, in unchanged: inout [UnchangedEdit]) {
        if !unbased.contains(RowKey(edit.table, edit.globalID)) { unchanged.append(edit) }
    }

    /// The global ids of the table's carried updates and deletes (an insert without a base is
    /// an update too), ordered by their bytes; `name` as the log spells it.
    func forEachUpdatedOrDeletedGlobalID(inTable name: String, _ body: (String) throws -> Void) throws {
        try tracking.connection.forEachRow("""
            SELECT globalid, operation = 'insert' FROM \(SyncSchema.editsTable)
            WHERE table_name = ? AND position <= ? ORDER BY globalid
            """, [.text(name), .integer(throughPosition)]) { row in
            guard let globalID = row.value(at: 0).stringValue else { return }
            if row.int64(at: 1) != 1 || unbased.contains(RowKey(name, globalID)) { try body(globalID) }
        }
    }

    /// The rows edited after the position (an interrupted run recorded it earlier): they wait
    /// for the next sync, and the download leaves them be.
    func editedAfterPosition() throws -> Set<RowKey> {
        var keys = Set<RowKey>()
        try tracking.forEachPendingChange(positions: (throughPosition + 1)...Int64.max) { change in
            keys.insert(RowKey(change.table, change.globalID))
        }
        return keys
    }
}
