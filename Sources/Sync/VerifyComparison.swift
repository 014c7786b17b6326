/// The row-by-row comparison behind `verify`: each synced table of the package merged with the
/// same table at the source in global id order, each difference explained by the change logs
/// or called divergent.
import Geodatabase
import Geometry
import PackageFormat
import SQLite
import SourceDrivers

/// One comparison of a package with its source, in their open read transactions.
///
/// - Important: Holds GEOS and PROJ contexts and statements: one owner at a time.
final class VerifyComparison {
    private let package: Connection
    private let source: any SyncSource
    private let tables: [SyncTable]
    private let scope: DownloadScope
    private let projections: LayerProjections
    private let mappingLinks: MappingLinks
    private let geos: GEOSContext
    /// Tables whose geometry column the package declares Multi: a cut there is
    /// expected as a Multi geometry, as `create` writes it.
    private let multiTables: Set<SQLName>
    /// The package's change log: the operation of each locally changed row.
    private let pending: [RowKey: ChangeOperation]
    /// Rows the source changed after the package's position, other than by its own syncs.
    private let behind: Set<RowKey>

    init(package: Connection, source: any SyncSource, state: PackageSyncState, setup: SyncSetup) throws {
        self.package = package
        self.source = source
        tables = setup.tables
        geos = setup.geos
        multiTables = Set(setup.packageSchema.layers.compactMap { layer in
            layer.geometryColumn.flatMap { $0.geometryTypeName.uppercased().hasPrefix("MULTI") ? SQLName(layer.name) : nil }
        })
        projections = setup.projections
        mappingLinks = MappingLinks(relationships: setup.packageSchema.relationships, tables: tables, package: package, source: source)
        scope = try DownloadScope(areas: setup.areas, source: source, package: package, tables: tables,
                                  relationships: setup.packageSchema.relationships, projections: projections,
                                  mappingLinks: mappingLinks, geos: geos)
        var pending: [RowKey: ChangeOperation] = [:]
        try package.forEachRow("SELECT table_name, globalid, operation FROM \(SyncSchema.editsTable)") { row in
            let table = row.value(at: 0).stringValue ?? "", globalID = row.value(at: 1).stringValue ?? ""
            pending[RowKey(table, globalID)] = try ChangeOperation(parsing: row.value(at: 2), in: SyncSchema.editsTable,
                                                                   table: table, globalID: globalID)
        }
        self.pending = pending
        var behind = Set<RowKey>()
        let position = try source.position(cursor: state.sourceCursor, generation: state.sourceGeneration)
        try source.forEachChange(since: position, excludingReplica: state.replicaID, tables: tables.map(\.name)) {
            behind.insert(RowKey($0.table, $0.globalID))
        }
        // Source changes a download left behind a pending local edit: the next one brings them.
        for row in try DeferredRows.all(in: package) { behind.insert(RowKey(row.table, row.globalID)) }
        self.behind = behind
    }

    /// Every difference, table by table in the package's order, each table's by global id.
    func differences() throws -> [VerifyDifference] {
        var result: [VerifyDifference] = []
        for table in tables { result += try differences(in: table) }
        return result
    }

    /// Merges the table's rows on both sides by global id.
    private func differences(in table: SyncTable) throws -> [VerifyDifference] {
        let here = try VerifyCursor(table, in: package), there = try VerifyCursor(table, at: source)
        var result: [VerifyDifference] = []
        while here.current != nil || there.current != nil {
            let order: Int = switch (here.current, there.current) {
            case let (p?, s?): p.id.lexicographicallyPrecedes(s.id) ? -1 : (s.id.lexicographicallyPrecedes(p.id) ? 1 : 0)
            case (nil, _): 1
            case (_, nil): -1
            }
            if order < 0, let mine = here.current {
                result += explain(whole: table, mine.id, row: mine.row, reason: "the package has the row and the source does not")
                try here.advance()
            } else if order > 0, let theirs = there.current {
                // A schema-only layer expects none of the source's rows; it keeps those it has.
                if !table.cut.schemaOnly, try belongs(theirs.row, of: table) != nil {
                    result += explain(whole: table, theirs.id, row: theirs.row,
                                      reason: "the row belongs in the package (\(membership(table))) and the package lacks it")
                }
                try there.advance()
            } else if let mine = here.current, let theirs = there.current {
                if let expected = table.cut.schemaOnly ? theirs.row : try belongs(theirs.row, of: table) {
                    result += try explain(columns: table, mine.id, package: mine.row, expected: expected)
                } else {
                    result += explain(whole: table, mine.id, row: mine.row,
                                      reason: "the package holds the row and it does not belong: the source's row fails \"\(membership(table))\"")
                }
                try here.advance()
                try there.advance()
            }
        }
        return result
    }

    /// The source row as the package should hold it (links by the package's keys), or nil when
    /// it does not belong in the package.
    private func belongs(_ row: VerifyRow, of table: SyncTable) throws -> VerifyRow? {
        guard let values = try mappingLinks.inPackage(sourceRow: row.values, of: table),
              try scope.contains(values, of: table) else { return nil }
        return VerifyRow(values: values)
    }

    /// What makes a row of the table belong, for reasons.
    private func membership(_ table: SyncTable) -> String {
        var parts: [String] = []
        if scope.isRelatedOnly(table) { parts.append("related to a row of the package") }
        else if table.cut.spatial && table.geometryColumn != nil { parts.append("meets the area") }
        if let filter = table.cut.filter { parts.append("meets the filter \(filter)") }
        return parts.isEmpty ? "every row of the table" : parts.joined(separator: " and ")
    }

    // MARK: Explaining

    /// A row present on one side only: pending when the package logged an insert or delete of
    /// it, behind when the source logged a change since the package's position, else divergent.
    private func explain(whole table: SyncTable, _ id: [UInt8], row: VerifyRow, reason: String) -> [VerifyDifference] {
        let globalID = String(decoding: id, as: UTF8.self)
        let key = RowKey(table.name, globalID)
        let status: VerifyDifference.Status
        if let operation = pending[key], operation != .update { status = .pending }
        else if behind.contains(key) { status = .behind }
        // A logged update does not explain a row missing on one side.
        else { status = .divergent }
        return [VerifyDifference(status: status, table: table.name, globalID: globalID, columns: table.valueColumns,
                                 reason: reason + explanation(status))]
    }

    /// A row on both sides: its differing columns, each pending where the package changed it
    /// from its base, behind where the source changed the row since, divergent otherwise.
    private func explain(columns table: SyncTable, _ id: [UInt8], package row: VerifyRow,
                         expected: VerifyRow) throws -> [VerifyDifference] {
        let differing = try table.valueColumns.filter { column in
            !same(table, column, row, try expectedValue(table, column, expected))
        }
        guard !differing.isEmpty else { return [] }
        let globalID = String(decoding: id, as: UTF8.self)
        let key = RowKey(table.name, globalID)
        let base = pending[key] != nil ? try baseRow(table, globalID) : nil
        var byStatus: [VerifyDifference.Status: [String]] = [:]
        for column in differing {
            let editedLocally: Bool
            if let base, let index = table.columns.firstIndex(of: column) {
                editedLocally = !same(table, column, row, base.exact(index))
            } else {
                editedLocally = pending[key] != nil
            }
            let status: VerifyDifference.Status = editedLocally ? .pending : (behind.contains(key) ? .behind : .divergent)
            byStatus[status, default: []].append(column)
        }
        return VerifyDifference.Status.allCases.compactMap { status in
            byStatus[status].map {
                VerifyDifference(status: status, table: table.name, globalID: globalID, columns: $0,
                                 reason: "values differ" + explanation(status))
            }
        }
    }

    private func explanation(_ status: VerifyDifference.Status) -> String {
        switch status {
        case .pending: return "; a local edit the next upload carries"
        case .behind: return "; a source change after the package's position the next download brings"
        case .divergent: return "; no change recorded in either change log explains it"
        }
    }

    // MARK: Values

    /// The value the package should hold in `column` for the source row: its geometry clipped
    /// and reprojected as a download does; other values as they are.
    private func expectedValue(_ table: SyncTable, _ column: String, _ row: VerifyRow) throws -> ExactValue {
        guard let index = table.columns.firstIndex(of: column) else { return .null }
        guard table.isGeometry(column), table.cut.clipped || projections.isReprojected(table) else { return row.exact(index) }
        do {
            let value = try scope.packageGeometry(row.values.values[index], of: table)
            guard multiTables.contains(table.sqlName), case .blob(let bytes) = value,
                  let decoded = try? GeoPackageBinary(bytes: bytes), !decoded.isEmpty else { return ExactValue(value) }
            return .blob(GeoPackageBinary(geometry: decoded.geometry.promotedToMulti, srsID: decoded.srsID).encoded())
        } catch let error as SyncError where error.kind == .unsupportedLayer {
            // A geometry PROJ cannot transform: only an identical value could be the same.
            return row.exact(index)
        }
    }

    /// True when the package row's value of `column` is `value`.
    private func same(_ table: SyncTable, _ column: String, _ row: VerifyRow, _ value: ExactValue) -> Bool {
        guard let index = table.columns.firstIndex(of: column) else { return true }
        let mine = row.exact(index)
        guard table.isGeometry(column) else { return mine.same(value) }
        let geos = self.geos
        return VerifyGeometry.same(mine, value, tolerance: projections.isReprojected(table) ? VerifySession.tolerance : 0,
                                   normalize: table.cut.clipped ? { try geos.normalize($0.withoutCollinearVertices) } : nil)
    }

    /// The base row (as extracted or last synced) the package's change log keeps for a row.
    private func baseRow(_ table: SyncTable, _ globalID: String) throws -> VerifyRow? {
        let base = SyncSchema.baseTable(for: table.name)
        let cursor = try VerifyCursor(table, sql: """
            SELECT \(table.columns.map(SQL.identifier).joined(separator: ", ")) FROM \(SQL.identifier(base))
            WHERE \(SQL.identifier(table.globalIDColumn)) = ?
            """, arguments: [.text(globalID)], in: package)
        return cursor.current?.row
    }
}
