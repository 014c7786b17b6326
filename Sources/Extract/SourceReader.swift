import Foundation
import Geodatabase
import Geometry
import SourceDrivers
import SQLite

/// The reading side of an extraction, run on its own thread with the source the planning
/// opened and its own GEOS context: one read snapshot over the whole source, layer by layer,
/// area rows first and related rows after, sending rows to the writer in batches through a
/// bounded queue (so memory does not grow with the number of features). The source streams
/// the rows (its spatial index narrows an area's); the exact test, the clip and the
/// reprojection happen here, whatever the source.
final class SourceReader {
    let source: any FeatureSource
    let plans: [LayerPlan]
    /// The area in each spatial layer's CRS, by layer name.
    let areas: [String: Geometry]
    let relationships: [Relationship]
    let clip: Bool
    let skipInvalid: Bool
    let includeRelated: Bool
    /// Makes the reprojection of a layer (source CRS -> package CRS), on the worker's thread.
    let makeTransform: (LayerPlan) throws -> ((Geometry) throws -> Geometry)?
    let send: (ExtractMessage) -> Bool
    let isCancelled: () -> Bool

    /// A batch goes to the writer at this many rows or bytes, whichever comes first: with the
    /// queue's few batches, the bytes in flight stay bounded however large the features are.
    static let batchSize = 512
    static let batchBytes = 256 << 10
    /// Key values asked of the source at a time, for related rows.
    static let keysPerQuery = 500

    /// Primary keys written, for tables that take part in a relationship.
    private var writtenKeys: [SQLName: Set<Int64>] = [:]
    /// Values of relationship key columns of the rows selected by area, by table and column.
    private var areaKeyValues: [SQLName: [SQLName: Set<SourceValue>]] = [:]
    private var tally = ExtractTally()

    init(source: any FeatureSource, plans: [LayerPlan], areas: [String: Geometry], relationships: [Relationship],
         clip: Bool, skipInvalid: Bool, includeRelated: Bool,
         makeTransform: @escaping (LayerPlan) throws -> ((Geometry) throws -> Geometry)?,
         send: @escaping (ExtractMessage) -> Bool, isCancelled: @escaping () -> Bool) {
        self.source = source
        self.plans = plans
        self.areas = areas
        self.relationships = relationships
        self.clip = clip
        self.skipInvalid = skipInvalid
        self.includeRelated = includeRelated
        self.makeTransform = makeTransform
        self.send = send
        self.isCancelled = isCancelled
    }

    /// Reads everything; returns what was found. `readPosition` runs first in the snapshot.
    func run(position readPosition: () throws -> SourcePosition?) throws -> ExtractTally {
        let context = try GEOSContext()
        let inPackage = Set(plans.map { SQLName($0.name) })
        let tracked = Set(relationships.filter {
            inPackage.contains(SQLName($0.originTable)) && inPackage.contains(SQLName($0.destinationTable))
        }.flatMap { [SQLName($0.originTable), SQLName($0.destinationTable)] })

        try source.withReadSnapshot {
            let position = try readPosition()
            (tally.generation, tally.cursor) = (position?.generation, position?.cursor)
            for plan in plans { try createTable(plan) }
            var selectors: [String: LayerSelector] = [:]
            for plan in plans {
                try checkCancelled()
                let isTracked = tracked.contains(SQLName(plan.name))
                switch plan.mode {
                case .schemaOnly, .relatedOnly:
                    continue
                case .whole:
                    try stream(plan, .all, tracked: isTracked, selector: nil, related: false)
                case .spatial:
                    guard let area = areas[plan.name], let g = plan.table.geometry else { continue }
                    let selector = try LayerSelector(
                        context: context, area: area, clip: clip,
                        transform: try makeTransform(plan), declared: g.declaredType,
                        outputSRSID: Int32(truncatingIfNeeded: g.srsID))
                    selectors[plan.name] = selector
                    try stream(plan, .envelopes(Self.prefilterBoxes(area)), tracked: isTracked, selector: selector, related: false)
                }
            }
            if includeRelated {
                try relatedPass(selectors: selectors, inPackage: inPackage)
            }
            try copyMetadata()
        }
        return tally
    }

    /// The package's table, and its title and description as the source stores them when
    /// they are not UTF-8 (the writer's are Strings, which cannot hold such text).
    private func createTable(_ plan: LayerPlan) throws {
        _ = send(.createTable(plan.table))
        let (identifier, description) = (plan.info.identifier, plan.info.description)
        guard identifier.isTextBytes || description.isTextBytes else { return }
        _ = send(.sql("UPDATE gpkg_contents SET identifier = coalesce(?, identifier), description = coalesce(?, description) "
                      + "WHERE table_name = ?", [try identifier.sqliteValue(), try description.sqliteValue(), .text(plan.name)]))
    }

    /// The boxes the source is asked for: each part's for an area of a few parts (an
    /// antimeridian box's two halves stay two, not one box around the world), else the
    /// area's (many parts would make as many passes).
    static func prefilterBoxes(_ area: Geometry) -> [Envelope] {
        if case .multiPolygon(let m) = area, (2...8).contains(m.polygons.count) {
            let boxes = m.polygons.compactMap { Geometry.polygon($0).envelope }
            if !boxes.isEmpty { return boxes }
        }
        return area.envelope.map { [$0] } ?? []
    }

    private func checkCancelled() throws {
        if isCancelled() { throw ExtractError(.cancelled, "cancelled") }
    }

    /// Streams the rows of one table the selection (and the layer's filter) takes, through
    /// the selector for area rows (`related == false`) or its conversion for related rows.
    private func stream(_ plan: LayerPlan, _ selection: RowQuery.Selection, tracked: Bool, selector: LayerSelector?,
                        related: Bool) throws {
        let table = plan.table
        let query = RowQuery(layer: plan.name, columns: table.columns, selection: selection, filter: plan.filter?.parsed)
        let geometryIndex = table.geometry.flatMap { g in table.columns.firstIndex(of: g.name) }
        let keyIndex = table.columns.firstIndex(name: SQLName(table.primaryKey))
        let keyColumns = relationshipColumns(of: table.name)
        var batch = RowBatch(table: table.name)
        let tableKey = SQLName(table.name)
        // A set still held by the dictionary is shared: the first insert would copy all of it
        // (on every related batch). Taken out while this stream adds to it, put back after.
        var written = (tracked ? writtenKeys.removeValue(forKey: tableKey) : writtenKeys[tableKey]) ?? []
        var count = 0
        try source.forEachRow(query) { row in
            let pk = keyIndex.flatMap { row.values[$0].integerValue }
            if related, let pk, written.contains(pk) { return }
            var values: [SQLiteValue] = []
            values.reserveCapacity(row.values.count)
            for (i, value) in row.values.enumerated() where i != geometryIndex { values.append(try value.sqliteValue()) }
            var envelope: Envelope?
            if let gi = geometryIndex {
                guard let geometry = try packageGeometry(row.values[gi], plan: plan, pk: pk, selector: selector, related: related)
                else { return }
                values.insert(geometry.value, at: gi)
                envelope = geometry.envelope
            }
            if tracked, let pk { written.insert(pk) }
            if !related {
                for (column, index) in keyColumns where !row.values[index].isNull {
                    areaKeyValues[tableKey, default: [:]][column, default: []].insert(row.values[index])
                }
            }
            count += 1
            if batch.add(PackageRow(values: values, envelope: envelope)) {
                try checkCancelled()
                try flush(&batch)
            }
        }
        if !batch.rows.isEmpty { try flush(&batch) }
        if tracked { writtenKeys[tableKey] = written }
        if related { tally.related[table.name, default: 0] += count } else { tally.selected[table.name, default: 0] += count }
    }

    private func flush(_ batch: inout RowBatch) throws {
        guard send(.rows(table: batch.table, rows: batch.rows)) else { throw ExtractError(.cancelled, "writer stopped") }
        batch.clear()
    }

    /// The package's value of a row's geometry and its envelope; nil when the row is not
    /// taken (outside the area, or skipped as invalid).
    /// - Throws: `ExtractError(.corruptGeometry)` for a geometry that cannot be read or fit
    ///   the package's column, unless invalid ones are skipped.
    private func packageGeometry(_ value: SourceValue, plan: LayerPlan, pk: Int64?, selector: LayerSelector?,
                                 related: Bool) throws -> (value: SQLiteValue, envelope: Envelope?)? {
        do {
            guard let geometry = try LayerSelector.geometry(of: value) else {
                // A NULL geometry meets no area; a row taken otherwise keeps it.
                return selector != nil && !related ? nil : (try value.sqliteValue(), nil)
            }
            if related {
                let converted: (blob: [UInt8], envelope: Envelope?) = try selector?.convert(geometry)
                    ?? (try LayerSelector.storedBlob(geometry), try geometry.planarEnvelope())
                return (.blob(converted.blob), converted.envelope)
            }
            guard let selector else { return (.blob(try LayerSelector.storedBlob(geometry)), try geometry.planarEnvelope()) }
            return try selector.select(geometry).map { (.blob($0.blob), $0.envelope) }
        } catch let error as GeometryError {
            if skipInvalid {
                tally.skippedInvalid[plan.name, default: 0] += 1
                return nil
            }
            let problem = error.kind == .invalidGeometry
                ? "its geometry cannot go into the package's \(plan.table.geometry?.geometryTypeName ?? "") column (\(error.message))"
                : "geometry cannot be read (\(error.message))"
            throw ExtractError(.corruptGeometry, "layer \(plan.name), fid \(pk.map(String.init) ?? "?"): "
                + "\(problem); pass --skip-invalid to skip such features")
        }
    }

    /// The columns of `table` that relationships key on, with their index in the row.
    private func relationshipColumns(of table: String) -> [(SQLName, Int)] {
        guard let plan = plans.first(where: { SQLName($0.name) == SQLName(table) }) else { return [] }
        var columns: Set<String> = []
        for end in relationships.flatMap(\.ends) where SQLName(end.table) == SQLName(table) {
            columns.insert(end.key)
        }
        return columns.compactMap { c in
            plan.table.columns.firstIndex(name: SQLName(c)).map { (SQLName(c), $0) }
        }
    }

    /// One hop along every relationship, both ways, from the rows selected by area.
    private func relatedPass(selectors: [String: LayerSelector], inPackage: Set<SQLName>) throws {
        for r in relationships {
            for end in r.ends {
                guard inPackage.contains(SQLName(end.table)), inPackage.contains(SQLName(end.otherTable)),
                      let toPlan = plans.first(where: { SQLName($0.name) == SQLName(end.otherTable) }),
                      toPlan.mode == .spatial || toPlan.mode == .relatedOnly,
                      let keys = areaKeyValues[SQLName(end.table)]?[SQLName(end.key)], !keys.isEmpty
                else { continue }
                var targets = Array(keys)
                if let mapping = r.mappingTable {
                    let hop = MappingHop(mappingTable: mapping, fromColumn: end.mappingColumn, toColumn: end.otherMappingColumn)
                    targets = try source.keys(through: hop, from: targets)
                }
                for chunk in stride(from: 0, to: targets.count, by: Self.keysPerQuery) {
                    try checkCancelled()
                    let part = Array(targets[chunk..<min(chunk + Self.keysPerQuery, targets.count)])
                    try stream(toPlan, .keys(column: end.otherKey, values: part),
                               tracked: true, selector: selectors[toPlan.name], related: true)
                }
            }
        }
    }

    /// Copies what the source says describes the copied tables (their data columns and
    /// constraints, relationships, mapping rows whose both ends were copied, extension rows).
    private func copyMetadata() throws {
        var insert: (table: String, columns: [String], sql: String)?
        try source.forEachMetadataItem(tables: plans.map(\.name), keptKeys: { writtenKeys[SQLName($0)] ?? [] }) { item in
            switch item {
            case .table(_, let declaration):
                _ = send(.sql(declaration, []))
            case .row(let table, let row):
                if insert?.table != table || insert?.columns != row.columns {
                    let sql = "INSERT INTO \(SQL.identifier(table)) (\(row.columns.map(SQL.identifier).joined(separator: ", "))) "
                        + "VALUES (\(Array(repeating: "?", count: row.columns.count).joined(separator: ", ")))"
                    insert = (table, row.columns, sql)
                }
                _ = send(.sql(insert!.sql, try row.values.map { try $0.sqliteValue() }))
            }
        }
    }
}

/// The rows of one table on their way to the writer, sent at a bound of rows or bytes.
struct RowBatch {
    let table: String
    private(set) var rows: [PackageRow] = []
    private var bytes = 0

    init(table: String) {
        self.table = table
        rows.reserveCapacity(SourceReader.batchSize)
    }

    /// Adds a row; true when the batch is full and should be sent.
    mutating func add(_ row: PackageRow) -> Bool {
        rows.append(row)
        bytes += row.values.reduce(0) { $0 + $1.byteCount }
        return rows.count == SourceReader.batchSize || bytes >= SourceReader.batchBytes
    }

    mutating func clear() {
        rows.removeAll(keepingCapacity: true)
        bytes = 0
    }
}

extension SourceValue {
    var integerValue: Int64? {
        if case .integer(let v) = self { return v }
        return nil
    }

    var isTextBytes: Bool {
        if case .textBytes = self { return true }
        return false
    }
}

extension SQLiteValue {
    /// About the memory the value holds, for bounding what is in flight.
    var byteCount: Int {
        switch self {
        case .blob(let b): return 16 + b.count
        case .text(let t): return 16 + t.utf8.count
        case .textBytes(let b): return 16 + b.count
        default: return 16
        }
    }
}
