/// The source's rows as sync works with them: the seam's neutral rows turned into the values
/// the package stores (a geometry as a GeoPackage blob), so reconcile, download and the
/// package's writes compare and store one kind of value.
import Geodatabase
import Geometry
import PackageFormat
import SQLite
import SourceDrivers

/// Reads a source's rows by global id, in the package's values.
struct SourceRowReader {
    let source: any SyncSource
    private let readAhead = ReadAheadRows()

    init(source: any SyncSource) {
        self.source = source
    }

    /// The source's row of that global id (every column of the table), or nil.
    /// - Throws: ``SyncError`` (`unsupportedLayer`) naming the row when its geometry cannot be
    ///   read.
    func row(_ globalID: String, in table: SyncTable) throws -> RowValues? {
        if !readAhead.rows.isEmpty, let known = readAhead.rows.removeValue(forKey: RowKey(table.name, globalID)) {
            return try known.get()
        }
        return try packageValues(of: try source.row(globalID, in: table.shape), globalID, in: table).get()
    }

    /// Runs `body` with the rows of `wanted` read ahead, a batch a table, when the source reads
    /// batches faster (``SyncSource/readsBatchesFaster``); ``row(_:in:)`` then answers from
    /// them, each once. Only for the download: its read transaction sees one state of the
    /// source, so a row read ahead is the row a later read would give.
    func readingAhead<T>(_ wanted: [(globalID: String, table: SyncTable)], _ body: () throws -> T) throws -> T {
        guard source.readsBatchesFaster, !wanted.isEmpty else { return try body() }
        var byTable: [SQLName: (table: SyncTable, ids: [String])] = [:]
        for (globalID, table) in wanted { byTable[table.sqlName, default: (table, [])].ids.append(globalID) }
        defer { readAhead.rows.removeAll(keepingCapacity: true) }
        for (table, ids) in byTable.values {
            for (globalID, row) in zip(ids, try rows(ids, in: table)) { readAhead.rows[RowKey(table.name, globalID)] = row }
        }
        return try body()
    }

    /// The source's rows of these global ids, one entry per id in order: the row or nil, or
    /// the error of a row whose geometry cannot be read (that row's problem, not the batch's).
    func rows(_ globalIDs: [String], in table: SyncTable) throws -> [Result<RowValues?, SyncError>] {
        try zip(globalIDs, try source.rows(globalIDs, in: table.shape)).map { try packageValues(of: $1, $0, in: table) }
    }

    private func packageValues(of row: SourceRow?, _ globalID: String, in table: SyncTable) throws -> Result<RowValues?, SyncError> {
        guard let row else { return .success(nil) }
        do { return .success(try RowValues(row)) } catch let error as GeometryError {
            return .failure(SyncError(.unsupportedLayer, "layer '\(table.name)' row \(globalID): the source's geometry cannot be read: \(error)"))
        }
    }

    /// Rows locked by one call.
    static let lockBatchSize = 10_000

    /// Locks at the source the rows the carried changes touch (inserts aside), table by table
    /// in name order and each table's rows in global-id order, before any is read; the ids
    /// are read from the package's log in that order, a batch at a time.
    func lockRows(of carried: CarriedChanges) throws {
        for name in carried.tableOrder.sorted(by: { SQLName($0) < SQLName($1) }) {
            guard let table = carried.tablesByName[SQLName(name)] else { continue }
            var batch: [String] = []
            func lock() throws {
                if !batch.isEmpty { try source.lockRows(batch, in: table.shape) }
                batch.removeAll(keepingCapacity: true)
            }
            try carried.forEachUpdatedOrDeletedGlobalID(inTable: name) { globalID in
                batch.append(globalID)
                if batch.count == Self.lockBatchSize { try lock() }
            }
            try lock()
        }
    }

    /// The global ids of the source's rows whose `column` equals `value` (a relationship key).
    func globalIDs(in table: SyncTable, where column: String, is value: SQLiteValue) throws -> [String] {
        try source.globalIDs(in: table.shape, where: column, equals: SourceValue(value, isGeometry: false))
    }
}

/// The rows a download read ahead (``SourceRowReader/readingAhead(_:_:)``), at most a batch.
private final class ReadAheadRows {
    var rows: [RowKey: Result<RowValues?, SyncError>] = [:]
}
