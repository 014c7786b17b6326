/// The rows of the in-memory source: read by global id, written with the constraints a
/// database keeps (NOT NULL, unique column sets) refused row by row, every write logged.
import Geodatabase
import Geometry
import SourceDrivers

extension InMemorySource {
    func row(_ globalID: String, in table: TableShape) throws -> SourceRow? {
        let stored = try self.table(table.name)
        return try stored.rows[globalID].map { try project($0, to: table.columns, of: stored) }
    }

    func globalIDs(in table: TableShape, where column: String, equals value: SourceValue) throws -> [String] {
        let stored = try self.table(table.name)
        try requireColumns([column], of: stored)
        return byKey(stored).filter { SQLValueOrder.equal($0.value[column] ?? .null, value) == true }.map(\.globalID)
    }

    /// The whole table is copied out first: memory is what this source is made of.
    func rowsByGlobalID(in table: TableShape) throws -> any SourceRowCursor {
        let stored = try self.table(table.name)
        let ordered = stored.rows.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
        return InMemoryRowCursor(rows: try ordered.map { try project($0.value, to: table.columns, of: stored) })
    }

    func forEachGlobalID(in table: TableShape, _ body: (String) throws -> Void) throws {
        for row in byKey(try self.table(table.name)) { try body(row.globalID) }
    }

    /// The first row by key order whose `key` equals `value`.
    func value(of column: String, in table: String, where key: String, equals value: SourceValue) throws -> SourceValue? {
        let stored = try self.table(table)
        try requireColumns([column, key], of: stored)
        return byKey(stored).first { SQLValueOrder.equal($0.value[key] ?? .null, value) == true }?.value[column]
    }

    func holder(of values: [(column: String, value: SourceValue)], in table: TableShape,
                besides globalID: String) throws -> String? {
        guard !values.isEmpty else { return nil }
        let stored = try self.table(table.name)
        try requireColumns(values.map(\.column), of: stored)
        return byKey(stored).first { row in
            row.globalID != globalID && values.allSatisfy { SQLValueOrder.equal(row.value[$0.column] ?? .null, $0.value) == true }
        }?.globalID
    }

    func meets(_ filter: LayerFilter, globalID: String, in table: TableShape) throws -> Bool {
        guard let expression = filter.expression else {
            throw InMemorySourceError("\(displayName): filter '\(filter.text)' is not in the grammar")
        }
        let stored = try self.table(table.name)
        guard let row = stored.rows[globalID] else { return false }
        return try InMemoryFilter(table: stored.shape).evaluate(expression, on: row) == true
    }

    /// Only the grammar: a text filter from before it would need SQLite to run.
    func layerFilter(_ text: String, table: String) throws -> LayerFilter {
        let columns = try self.table(table).shape.columns.map(\.name)
        do {
            return LayerFilter(text: text, expression: try FilterParser.parse(text, columns: columns))
        } catch {
            throw GeodatabaseError(.filter, "--where '\(table):\(text)' refused: \(error) (an in-memory source runs "
                + "only filters in the grammar)")
        }
    }

    func apply(_ write: SourceWrite, in table: TableShape) throws -> SourceWriteOutcome {
        guard let index = state.tables.firstIndex(where: { SQLName($0.shape.name) == SQLName(table.name) }) else {
            throw InMemorySourceError("\(displayName) has no table \(table.name)")
        }
        let stored = state.tables[index]
        let globalIDColumn = stored.shape.globalIDColumn
        try requireWritable("a write of \(table.name)")
        try requireNoKey(write, in: stored)
        switch write {
        case .insert(let values):
            try requireColumns(values.columns, of: stored)
            guard let globalID = values[globalIDColumn]?.stringValue else {
                return .refused(SourceRefusal(message: "NOT NULL constraint failed: \(stored.shape.name).\(globalIDColumn)"))
            }
            var row = Dictionary(uniqueKeysWithValues: stored.shape.columns.map { ($0.name, SourceValue.null) })
            for (column, value) in zip(values.columns, values.values) { row[column] = value }
            row[stored.shape.keyColumn] = .integer(stored.nextKey)
            if let refusal = refusal(of: row, globalID: globalID, in: stored) { return .refused(refusal) }
            state.tables[index].rows[globalID] = row
            state.tables[index].nextKey += 1
            logChange(table: stored.shape.name, globalID: globalID)
        case .update(let globalID, let values):
            try requireColumns(values.columns, of: stored)
            guard var row = stored.rows[globalID] else { return .applied(found: false) }
            for (column, value) in zip(values.columns, values.values) { row[column] = value }
            if let refusal = refusal(of: row, globalID: globalID, in: stored) { return .refused(refusal) }
            state.tables[index].rows[globalID] = row
            logChange(table: stored.shape.name, globalID: globalID)
        case .delete(let globalID):
            guard state.tables[index].rows.removeValue(forKey: globalID) != nil else { return .applied(found: false) }
            logChange(table: stored.shape.name, globalID: globalID)
        }
        return .applied(found: true)
    }

    /// The source numbers its rows itself, and a row keeps its global id: a write naming the
    /// key, or an update naming the global id, is sync's mistake.
    private func requireNoKey(_ write: SourceWrite, in table: InMemoryTable) throws {
        let named: [String]
        switch write {
        case .insert(let row): named = row.columns
        case .update(_, let row):
            named = row.columns
            if row.columns.contains(table.shape.globalIDColumn) {
                throw InMemorySourceError("\(displayName): an update of \(table.shape.name) names its global id")
            }
        case .delete: return
        }
        if named.contains(table.shape.keyColumn) {
            throw InMemorySourceError("\(displayName): a write of \(table.shape.name) names its key \(table.shape.keyColumn)")
        }
    }

    /// Why the table would refuse the row as it now reads: a NOT NULL column left NULL, or a
    /// unique column set another row holds the same values in.
    private func refusal(of row: [String: SourceValue], globalID: String, in table: InMemoryTable) -> SourceRefusal? {
        if let empty = table.shape.columns.map(\.name).first(where: { table.notNullColumns.contains($0) && row[$0] == .null }) {
            return SourceRefusal(message: "NOT NULL constraint failed: \(table.shape.name).\(empty)")
        }
        for columns in table.uniqueColumnSets {
            let taken = table.rows.contains { other in
                other.key != globalID && columns.allSatisfy { SQLValueOrder.equal(other.value[$0] ?? .null, row[$0] ?? .null) == true }
            }
            if taken {
                return SourceRefusal(uniqueColumns: columns, message: "UNIQUE constraint failed: "
                    + columns.map { "\(table.shape.name).\($0)" }.joined(separator: ", "))
            }
        }
        return nil
    }

    func table(_ name: String) throws -> InMemoryTable {
        guard let table = state.tables.first(where: { SQLName($0.shape.name) == SQLName(name) }) else {
            throw InMemorySourceError("\(displayName) has no table \(name)")
        }
        return table
    }

    /// Columns are matched as the source spells them: a shape spelled otherwise is sync's mistake.
    private func requireColumns(_ columns: [String], of table: InMemoryTable) throws {
        let known = Set(table.shape.columns.map(\.name))
        if let unknown = columns.first(where: { !known.contains($0) }) {
            throw InMemorySourceError("\(displayName): table \(table.shape.name) has no column '\(unknown)'")
        }
    }

    private func project(_ row: [String: SourceValue], to columns: [String], of table: InMemoryTable) throws -> SourceRow {
        try requireColumns(columns, of: table)
        return SourceRow(columns: columns, values: columns.map { row[$0] ?? .null })
    }

    /// Rows in the order of their key, as a database without ORDER BY commonly reads them.
    private func byKey(_ table: InMemoryTable) -> [(globalID: String, value: [String: SourceValue])] {
        table.rows.map { (globalID: $0.key, value: $0.value) }.sorted {
            SQLValueOrder.compare($0.value[table.shape.keyColumn] ?? .null, $1.value[table.shape.keyColumn] ?? .null) ?? 0 < 0
        }
    }
}

/// Rows handed out one at a time.
final class InMemoryRowCursor: SourceRowCursor {
    private var rows: IndexingIterator<[SourceRow]>

    init(rows: [SourceRow]) { self.rows = rows.makeIterator() }

    func next() throws -> SourceRow? { rows.next() }
}
