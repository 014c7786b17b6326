/// Related Tables Extension mapping tables link rows by key (`base_id`, `related_id`: normally
/// fids), and keys are local to each database: a row inserted offline has a fid in the package
/// that may be another row's at the source. So links travel as the global ids of the rows they
/// point to: a package link is read as global ids (package key -> global id), reconciled as
/// such, and written at the source with the source's keys of those rows (global id -> source
/// key); a source link comes down the other way.
import Geodatabase
import Geometry
import SQLite
import SourceDrivers

/// A row the source cannot take, found before SQLite is asked (a link to a row the source does
/// not have, a geometry that cannot be transformed): a per-row constraint conflict.
struct RowRefusal: Error {
    var message: String
}

/// The mapping tables of one sync and the key lookups they need.
///
/// - Important: Holds prepared statements of both connections: one owner at a time.
final class MappingLinks {
    /// One end of a mapping table's links: the linked table and the key `base_id` or
    /// `related_id` holds.
    struct End {
        var column: String
        var table: SyncTable
        var key: String
    }

    /// By mapping table name: the table and its two ends.
    private var mappings: [SQLName: (table: SyncTable, ends: [End])] = [:]
    private let package: Connection
    private let source: any SyncSource
    private let packageStatements: StatementCache

    /// - Parameters:
    ///   - relationships: the package's relationships; those kept in a synced mapping table
    ///     whose both ends are synced tables are translated.
    init(relationships: [Relationship], tables: [SyncTable], package: Connection, source: any SyncSource) {
        self.package = package
        self.source = source
        packageStatements = StatementCache(package)
        let byName = Dictionary(tables.map { (SQLName($0.name), $0) }, uniquingKeysWith: { a, _ in a })
        for r in relationships {
            guard let mapping = r.mappingTable, let table = byName[SQLName(mapping)] else { continue }
            let ends = r.ends.compactMap { end in
                byName[SQLName(end.table)].map { End(column: end.mappingColumn, table: $0, key: end.key) }
            }
            guard ends.count == 2 else { continue }
            mappings[SQLName(mapping)] = (table, ends)
        }
    }

    /// True for a mapping table whose links are translated.
    func isMapping(_ table: SyncTable) -> Bool {
        mappings[table.sqlName] != nil
    }

    /// True for the name of a mapping table whose links are translated.
    func isMapping(named name: String) -> Bool {
        !mappings.isEmpty && mappings[SQLName(name)] != nil
    }

    /// The global ids of the package's links (of every mapping table) whose either end the
    /// package does not have.
    func packageLinksWithMissingEnds() throws -> [(table: SyncTable, globalIDs: [String])] {
        var result: [(SyncTable, [String])] = []
        for (_, mapping) in mappings.sorted(by: { $0.key < $1.key }) {
            let missing = mapping.ends.map { end in
                // An uncorrelated IN list: built once, where NOT EXISTS would scan an unindexed key per link.
                "NOT coalesce(m.\(SQL.identifier(end.column)) IN (SELECT e.\(SQL.identifier(end.key)) FROM \(SQL.identifier(end.table.name)) e WHERE e.\(SQL.identifier(end.key)) IS NOT NULL), 0)"
            }
            let ids = try package.query("""
                SELECT m.\(SQL.identifier(mapping.table.globalIDColumn)) FROM \(SQL.identifier(mapping.table.name)) m \
                WHERE \(missing.joined(separator: " OR "))
                """).compactMap { $0[0].stringValue }
            if !ids.isEmpty { result.append((mapping.table, ids)) }
        }
        return result
    }

    /// The mapping tables that link rows of `table`, each with the end `table` is on and the
    /// other end.
    func mappings(linking table: SyncTable) -> [(mapping: SyncTable, this: End, other: End)] {
        var result: [(SyncTable, End, End)] = []
        for (_, mapping) in mappings.sorted(by: { $0.key < $1.key }) {
            for (i, end) in mapping.ends.enumerated() where SQLName(end.table.name) == SQLName(table.name) {
                result.append((mapping.table, end, mapping.ends[1 - i]))
            }
        }
        return result
    }

    // MARK: Upload

    /// A package row of a mapping table with its links as the global ids of the rows they point
    /// to (a row deleted offline is found in its base); other rows unchanged.
    func byGlobalID(packageRow row: RowValues?, of table: SyncTable) throws -> RowValues? {
        try translate(row, of: table) { end, key in
            if let id = try packageLookup("SELECT \(SQL.identifier(end.table.globalIDColumn)) FROM \(SQL.identifier(end.table.name)) WHERE \(SQL.identifier(end.key)) = ?", key) {
                return id
            }
            let base = SyncSchema.baseTable(for: end.table.name)
            return try packageLookup("SELECT \(SQL.identifier(end.table.globalIDColumn)) FROM \(SQL.identifier(base)) WHERE \(SQL.identifier(end.key)) = ?", key)
                ?? .text("unknown \(end.table.name) \(end.key) \(key.description) in the package")
        }
    }

    /// A source row of a mapping table with its links as global ids; other rows unchanged.
    func byGlobalID(sourceRow row: RowValues?, of table: SyncTable) throws -> RowValues? {
        try translate(row, of: table) { end, key in
            try sourceValue(end.table.globalIDColumn, in: end.table.name, where: end.key, is: key)
                ?? .text("unknown \(end.table.name) \(end.key) \(key.description) at the source")
        }
    }

    /// What the source must do, with links given by global ids turned into the source's keys.
    /// - Throws: ``RowRefusal`` when the source has no row of a linked global id.
    func atSource(_ action: SourceAction, of table: SyncTable) throws -> SourceAction {
        func keys(_ row: RowValues) throws -> RowValues {
            try translate(row, of: table) { end, id in
                guard let key = try sourceValue(end.key, in: end.table.name, where: end.table.globalIDColumn, is: id) else {
                    throw RowRefusal(message: "the link's \(end.column) points to \(end.table.name) \(id.description), which the source does not have")
                }
                return key
            } ?? row
        }
        switch action {
        case .none, .delete: return action
        case .insert(let row): return .insert(try keys(row))
        case .update(let values): return .update(try keys(values))
        }
    }

    // MARK: Download

    /// A source row of a mapping table with the package's keys of the rows it links, or nil
    /// when the package lacks one of them (the link does not belong in the package).
    func inPackage(sourceRow row: RowValues, of table: SyncTable) throws -> RowValues? {
        guard let ends = mappings[SQLName(table.name)]?.ends else { return row }
        var values = row.values
        for end in ends {
            guard let index = row.columns.firstIndex(name: SQLName(end.column)) else { continue }
            guard !values[index].isNull,
                  let id = try sourceValue(end.table.globalIDColumn, in: end.table.name, where: end.key, is: values[index]),
                  let key = try packageLookup("SELECT \(SQL.identifier(end.key)) FROM \(SQL.identifier(end.table.name)) WHERE \(SQL.identifier(end.table.globalIDColumn)) = ?", id)
            else { return nil }
            values[index] = key
        }
        return RowValues(columns: row.columns, values: values)
    }

    /// The global ids of the source's links of a source row (mapping rows naming its key on
    /// `this` end), each with the global id of the row at the other end (nil when the source
    /// has no such row).
    func sourceLinks(of row: RowValues, this: End, other: End, mapping links: SyncTable) throws -> [(link: String, other: String?)] {
        guard let key = row[this.key], !key.isNull else { return [] }
        var result: [(String, String?)] = []
        let linkColumn = links.shape.with(columns: [links.globalIDColumn, other.column])
        for link in try source.globalIDs(in: links.shape, where: this.column, equals: SourceValue(key, isGeometry: false)) {
            let otherKey = try source.row(link, in: linkColumn)?[other.column].map { try $0.sqliteValue() } ?? .null
            let otherID = otherKey.isNull ? nil
                : try sourceValue(other.table.globalIDColumn, in: other.table.name, where: other.key, is: otherKey)?.stringValue
            result.append((link, otherID))
        }
        return result
    }

    /// The rows a source link points to, as their tables and global ids (an end the source has
    /// no row for is left out).
    func sourceEnds(of row: RowValues, of mapping: SyncTable) throws -> [(table: SyncTable, globalID: String)] {
        guard let ends = mappings[SQLName(mapping.name)]?.ends else { return [] }
        return try ends.compactMap { end in
            guard let key = row.columns.firstIndex(name: SQLName(end.column)).map({ row.values[$0] }), !key.isNull,
                  let id = try sourceValue(end.table.globalIDColumn, in: end.table.name, where: end.key, is: key)?.stringValue
            else { return nil }
            return (end.table, id)
        }
    }

    /// True when the source links the row (of a table at an end of some mapping table) to a row
    /// the package has.
    func isLinkedToPackagedRow(_ row: RowValues, of table: SyncTable) throws -> Bool {
        for (mapping, this, other) in mappings(linking: table) {
            for link in try sourceLinks(of: row, this: this, other: other, mapping: mapping) {
                guard let id = link.other else { continue }
                if try packageLookup("SELECT 1 FROM \(SQL.identifier(other.table.name)) WHERE \(SQL.identifier(other.table.globalIDColumn)) = ?", .text(id)) != nil {
                    return true
                }
            }
        }
        return false
    }

    // MARK: Lookups

    private func translate(_ row: RowValues?, of table: SyncTable,
                           _ convert: (End, SQLiteValue) throws -> SQLiteValue) throws -> RowValues? {
        // Asked for every row of every table: most packages have no mapping table at all.
        guard let row, !mappings.isEmpty, let ends = mappings[table.sqlName]?.ends else { return row }
        var values = row.values
        for end in ends {
            guard let index = row.columns.firstIndex(name: SQLName(end.column)), !values[index].isNull else { continue }
            values[index] = try convert(end, values[index])
        }
        return RowValues(columns: row.columns, values: values)
    }

    /// The first column of the first row of a one-argument query on the package, nil when
    /// there is none.
    private func packageLookup(_ sql: String, _ argument: SQLiteValue) throws -> SQLiteValue? {
        let statement = try packageStatements.statement(sql)
        defer { statement.reset() }
        try statement.bind([argument])
        guard try statement.step() else { return nil }
        let value = statement.value(at: 0)
        return value.isNull ? nil : value
    }

    /// The source's value of `column` in the first row of `table` whose `key` is `value`, nil
    /// when there is none or it is NULL.
    private func sourceValue(_ column: String, in table: String, where key: String, is value: SQLiteValue) throws -> SQLiteValue? {
        guard let found = try source.value(of: column, in: table, where: key, equals: SourceValue(value, isGeometry: false)),
              !found.isNull else { return nil }
        return try found.sqliteValue()
    }
}
