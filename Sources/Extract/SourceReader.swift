import Foundation
import Geodatabase
import Geometry
import SQLite

/// The reading side of an extraction, run on its own thread with its own source connection
/// and GEOS context: one read transaction over the whole source, layer by layer, area rows
/// first and related rows after, sending rows to the writer in batches through a bounded
/// queue (so memory does not grow with the number of features).
final class SourceReader {
    let sourcePath: String
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

    /// Primary keys written, for tables that take part in a relationship.
    private var writtenKeys: [SQLName: Set<Int64>] = [:]
    /// Values of relationship key columns of the rows selected by area, by table and column.
    private var areaKeyValues: [SQLName: [SQLName: Set<SQLiteValue>]] = [:]
    private var tally = ExtractTally()

    init(sourcePath: String, plans: [LayerPlan], areas: [String: Geometry], relationships: [Relationship],
         clip: Bool, skipInvalid: Bool, includeRelated: Bool,
         makeTransform: @escaping (LayerPlan) throws -> ((Geometry) throws -> Geometry)?,
         send: @escaping (ExtractMessage) -> Bool, isCancelled: @escaping () -> Bool) {
        self.sourcePath = sourcePath
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

    /// Reads everything; returns what was found.
    func run(generation readGeneration: (Connection) throws -> Int64?) throws -> ExtractTally {
        let connection: Connection
        // A source in rollback-journal mode is locked while an office edit commits: wait for it.
        do { connection = try Connection(path: sourcePath, mode: .readOnly, busyTimeout: 30) } catch {
            throw ExtractError(.source, "cannot open \(sourcePath): \((error as? SQLiteError)?.reasonAfterPath ?? "\(error)")")
        }
        // SQLite's default cache, stated: the read's memory stays bounded whatever the source's size.
        try connection.execute("PRAGMA cache_size = -2000")
        let context = try GEOSContext()
        let inPackage = Set(plans.map { SQLName($0.name) })
        let tracked = Set(relationships.filter {
            inPackage.contains(SQLName($0.originTable)) && inPackage.contains(SQLName($0.destinationTable))
        }.flatMap { [SQLName($0.originTable), SQLName($0.destinationTable)] })

        try connection.withTransaction(.deferred) {
            tally.generation = try readGeneration(connection)
            for plan in plans {
                _ = send(.createTable(plan.table))
            }
            var selectors: [String: LayerSelector] = [:]
            for plan in plans {
                try checkCancelled()
                switch plan.mode {
                case .schemaOnly, .relatedOnly:
                    continue
                case .whole:
                    try stream(plan, connection: connection, condition: nil, arguments: [],
                               tracked: tracked.contains(SQLName(plan.name)), selector: nil, related: false)
                case .spatial:
                    guard let area = areas[plan.name], let g = plan.table.geometry else { continue }
                    let selector = try LayerSelector(
                        context: context, area: area, clip: clip,
                        transform: try makeTransform(plan), declared: g.declaredType,
                        outputSRSID: Int32(truncatingIfNeeded: g.srsID))
                    selectors[plan.name] = selector
                    guard plan.info.hasSpatialIndex, let rtree = plan.table.rtreeName else {
                        try stream(plan, connection: connection, condition: nil, arguments: [],
                                   tracked: tracked.contains(SQLName(plan.name)), selector: selector, related: false)
                        continue
                    }
                    // The R-tree drives the loop (CROSS JOIN keeps it outermost), so rows
                    // stream without SQLite first collecting every matching id; its columns
                    // hide inside the sub-select, so a filter's column names stay unambiguous.
                    // One pass per part's box (an antimeridian box is two), each skipping
                    // what an earlier box already took, so no row comes twice.
                    let boxes = Self.prefilterBoxes(area)
                    for (i, box) in boxes.enumerated() {
                        var conditions = ["minx <= ? AND maxx >= ? AND miny <= ? AND maxy >= ?"]
                        var arguments: [SQLiteValue] = [.real(box.maxX), .real(box.minX), .real(box.maxY), .real(box.minY)]
                        for earlier in boxes[..<i] {
                            conditions.append("NOT (minx <= ? AND maxx >= ? AND miny <= ? AND maxy >= ?)")
                            arguments += [.real(earlier.maxX), .real(earlier.minX), .real(earlier.maxY), .real(earlier.minY)]
                        }
                        let prefilter = "(SELECT id AS pkgbuild_rtree_id FROM \(SQL.identifier(rtree)) "
                            + "WHERE \(conditions.joined(separator: " AND "))) AS pkgbuild_rtree CROSS JOIN "
                        try stream(plan, connection: connection,
                                   condition: "\(SQL.identifier(plan.table.name)).\(SQL.identifier(plan.table.primaryKey)) = pkgbuild_rtree_id",
                                   arguments: arguments, from: prefilter,
                                   tracked: tracked.contains(SQLName(plan.name)), selector: selector, related: false)
                    }
                }
            }
            if includeRelated {
                try relatedPass(connection: connection, context: context, selectors: selectors, inPackage: inPackage)
            }
            try copyMetadata(connection: connection, inPackage: inPackage)
        }
        return tally
    }

    /// The boxes the R-tree is asked for: each part's for an area of a few parts (an
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

    /// Streams the rows of one table that meet `condition` (and the layer's filter), through
    /// the selector for area rows (`related == false`) or its conversion for related rows.
    private func stream(_ plan: LayerPlan, connection: Connection, condition: String?, arguments: [SQLiteValue],
                        from prefix: String? = nil, tracked: Bool, selector: LayerSelector?, related: Bool) throws {
        let table = plan.table
        var conditions: [String] = []
        if let condition { conditions.append(condition) }
        if let filter = plan.filter { conditions.append(filter.parsed.sqlite) }
        let t = SQL.identifier(table.name)
        let sql = "SELECT \(table.columns.map { "\(t).\(SQL.identifier($0))" }.joined(separator: ", ")) FROM \(prefix ?? "")\(t)"
            + (conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND "))
        let statement = try connection.prepare(sql)
        try statement.bind(arguments)
        let geometryIndex = table.geometry.flatMap { g in table.columns.firstIndex(of: g.name) }
        let keyIndex = table.columns.firstIndex(name: SQLName(table.primaryKey))
        let keyColumns = relationshipColumns(of: table.name)
        var batch: [PackageRow] = []
        var batchBytes = 0
        batch.reserveCapacity(Self.batchSize)
        let tableKey = SQLName(table.name)
        // A set still held by the dictionary is shared: the first insert would copy all of it
        // (on every related batch). Taken out while this stream adds to it, put back after.
        var written = (tracked ? writtenKeys.removeValue(forKey: tableKey) : writtenKeys[tableKey]) ?? []
        var count = 0
        while try statement.step() {
            var values = statement.values
            let pk = keyIndex.flatMap { values[$0].int64Value }
            if related, let pk, written.contains(pk) { continue }
            var envelope: Envelope?
            if let gi = geometryIndex, let blob = values[gi].blobValue {
                do {
                    if related {
                        let converted: (blob: [UInt8], envelope: Envelope?) =
                            try selector.map { try $0.convert(blob) } ?? (blob, try GeoPackageBinary.envelope(of: blob))
                        values[gi] = .blob(converted.blob)
                        envelope = converted.envelope
                    } else if let selector {
                        guard let selected = try selector.select(blob) else { continue }
                        values[gi] = .blob(selected.blob)
                        envelope = selected.envelope
                    } else {
                        envelope = try GeoPackageBinary.envelope(of: blob)
                    }
                } catch let error as GeometryError {
                    if skipInvalid {
                        tally.skippedInvalid[table.name, default: 0] += 1
                        continue
                    }
                    let problem = error.kind == .invalidGeometry
                        ? "its geometry cannot go into the package's \(table.geometry?.geometryTypeName ?? "") column (\(error.message))"
                        : "geometry cannot be read (\(error.message))"
                    throw ExtractError(.corruptGeometry, "layer \(table.name), fid \(pk.map(String.init) ?? "?"): "
                        + "\(problem); pass --skip-invalid to skip such features")
                }
            } else if selector != nil && !related {
                continue  // a NULL geometry meets no area
            }
            if tracked, let pk { written.insert(pk) }
            if !related {
                for (column, index) in keyColumns where !values[index].isNull {
                    areaKeyValues[tableKey, default: [:]][column, default: []].insert(values[index])
                }
            }
            batch.append(PackageRow(values: values, envelope: envelope))
            batchBytes += values.reduce(0) { $0 + $1.byteCount }
            count += 1
            if batch.count == Self.batchSize || batchBytes >= Self.batchBytes {
                try checkCancelled()
                guard send(.rows(table: table.name, rows: batch)) else { throw ExtractError(.cancelled, "writer stopped") }
                batch.removeAll(keepingCapacity: true)
                batchBytes = 0
            }
        }
        if !batch.isEmpty {
            guard send(.rows(table: table.name, rows: batch)) else { throw ExtractError(.cancelled, "writer stopped") }
        }
        if tracked { writtenKeys[tableKey] = written }
        if related { tally.related[table.name, default: 0] += count } else { tally.selected[table.name, default: 0] += count }
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
    private func relatedPass(connection: Connection, context: GEOSContext, selectors: [String: LayerSelector],
                             inPackage: Set<SQLName>) throws {
        for r in relationships {
            for end in r.ends {
                guard inPackage.contains(SQLName(end.table)), inPackage.contains(SQLName(end.otherTable)),
                      let toPlan = plans.first(where: { SQLName($0.name) == SQLName(end.otherTable) }),
                      toPlan.mode == .spatial || toPlan.mode == .relatedOnly,
                      let keys = areaKeyValues[SQLName(end.table)]?[SQLName(end.key)], !keys.isEmpty
                else { continue }
                var targets = Array(keys)
                if let mapping = r.mappingTable {
                    targets = try mapped(keys: targets, through: mapping, from: end, connection: connection)
                }
                for chunk in stride(from: 0, to: targets.count, by: 500) {
                    try checkCancelled()
                    let part = Array(targets[chunk..<min(chunk + 500, targets.count)])
                    let marks = Array(repeating: "?", count: part.count).joined(separator: ", ")
                    try stream(toPlan, connection: connection,
                               condition: "\(SQL.identifier(end.otherKey)) IN (\(marks))", arguments: part,
                               tracked: true, selector: selectors[toPlan.name], related: true)
                }
            }
        }
    }

    /// The other ends' key values of mapping-table links (Related Tables Extension).
    private func mapped(keys: [SQLiteValue], through mapping: String, from end: Relationship.End,
                        connection: Connection) throws -> [SQLiteValue] {
        let (fromColumn, toColumn) = (end.mappingColumn, end.otherMappingColumn)
        var result: Set<SQLiteValue> = []
        for chunk in stride(from: 0, to: keys.count, by: 500) {
            let part = Array(keys[chunk..<min(chunk + 500, keys.count)])
            let marks = Array(repeating: "?", count: part.count).joined(separator: ", ")
            for row in try connection.query("SELECT \(toColumn) FROM \(SQL.identifier(mapping)) WHERE \(fromColumn) IN (\(marks))", part) {
                result.insert(row[0])
            }
        }
        return Array(result)
    }

    /// Copies what describes the copied tables: data columns and their constraints, the
    /// relationships between copied tables (ours and the Related Tables Extension's, with
    /// the mapping rows whose both ends were copied), and their extension rows.
    private func copyMetadata(connection: Connection, inPackage: Set<SQLName>) throws {
        func createSQL(_ table: String) throws -> String? {
            try connection.scalar("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?", [.text(table)])?.stringValue
        }
        func copyRows(_ table: String, where condition: String, _ arguments: [SQLiteValue] = []) throws {
            let statement = try connection.prepare("SELECT * FROM \(SQL.identifier(table)) WHERE \(condition)")
            try statement.bind(arguments)
            let names = statement.columnNames
            let insert = "INSERT INTO \(SQL.identifier(table)) (\(names.map(SQL.identifier).joined(separator: ", "))) "
                + "VALUES (\(Array(repeating: "?", count: names.count).joined(separator: ", ")))"
            while try statement.step() { _ = send(.sql(insert, statement.values)) }
        }
        let tableList = inPackage.map { SQL.literal($0.folded) }.joined(separator: ", ")
        var copiedMetadata: [String] = []
        if try tableExists("gpkg_data_columns", in: connection), let ddl = try createSQL("gpkg_data_columns") {
            _ = send(.sql(ddl, []))
            try copyRows("gpkg_data_columns", where: "lower(table_name) IN (\(tableList))")
            copiedMetadata.append("gpkg_data_columns")
            if try tableExists("gpkg_data_column_constraints", in: connection), let ddl = try createSQL("gpkg_data_column_constraints") {
                _ = send(.sql(ddl, []))
                // In the source's rowid order: an enum's values are listed in the order they were
                // written, which the unique index the IN would otherwise follow does not keep.
                try copyRows("gpkg_data_column_constraints", where: """
                    constraint_name IN (SELECT constraint_name FROM gpkg_data_columns WHERE lower(table_name) IN (\(tableList)))
                    ORDER BY rowid
                    """)
                copiedMetadata.append("gpkg_data_column_constraints")
            }
        }
        for metadata in ["pkgbuild_relationships"] where try tableExists(metadata, in: connection) {
            if let ddl = try createSQL(metadata) {
                _ = send(.sql(ddl, []))
                try copyRows(metadata, where: "lower(origin_table) IN (\(tableList)) AND lower(destination_table) IN (\(tableList))")
                copiedMetadata.append(metadata)
            }
        }
        let mappings = relationships.filter {
            $0.mappingTable != nil && inPackage.contains(SQLName($0.originTable))
                && inPackage.contains(SQLName($0.destinationTable))
        }
        if !mappings.isEmpty, try tableExists("gpkgext_relations", in: connection), let ddl = try createSQL("gpkgext_relations") {
            _ = send(.sql(ddl, []))
            copiedMetadata.append("gpkgext_relations")
            for r in mappings {
                guard let mapping = r.mappingTable, let mappingDDL = try createSQL(mapping) else { continue }
                try copyRows("gpkgext_relations", where: "mapping_table_name = ?", [.text(mapping)])
                _ = send(.sql(mappingDDL, []))
                let base = writtenKeys[SQLName(r.originTable)] ?? []
                let related = writtenKeys[SQLName(r.destinationTable)] ?? []
                // A sync-enabled source's links keep their global ids: sync matches links by them.
                let globalID = try connection.scalar("SELECT name FROM pragma_table_info(?) WHERE lower(name) = 'globalid'",
                                                     [.text(mapping)])?.stringValue
                let columns = (["base_id", "related_id"] + (globalID.map { [$0] } ?? [])).map(SQL.identifier)
                let statement = try connection.prepare("SELECT \(columns.joined(separator: ", ")) FROM \(SQL.identifier(mapping))")
                let insert = "INSERT INTO \(SQL.identifier(mapping)) (\(columns.joined(separator: ", "))) VALUES "
                    + "(\(Array(repeating: "?", count: columns.count).joined(separator: ", ")))"
                while try statement.step() {
                    guard let b = statement.values[0].int64Value, let rel = statement.values[1].int64Value,
                          base.contains(b), related.contains(rel) else { continue }
                    _ = send(.sql(insert, statement.values))
                }
                copiedMetadata.append(mapping)
            }
        }
        // The writer names and describes each table from the schema's Strings, which cannot
        // hold text that is not UTF-8: such an identifier or description is copied as its value.
        for row in try connection.query("""
            SELECT table_name, identifier, description FROM gpkg_contents WHERE lower(table_name) IN (\(tableList))
            """) where row[1].isTextBytes || row[2].isTextBytes {
            _ = send(.sql("UPDATE gpkg_contents SET identifier = coalesce(?, identifier), description = coalesce(?, description) "
                          + "WHERE table_name = ?", [row[1], row[2], row[0]]))
        }
        if try tableExists("gpkg_extensions", in: connection) {
            let names = (copiedMetadata.map { SQLName($0) } + Array(inPackage)).map { SQL.literal($0.folded) }.joined(separator: ", ")
            try copyRows("gpkg_extensions", where: """
                lower(table_name) IN (\(names)) AND extension_name NOT IN ('gpkg_rtree_index', \(SQL.literal(SyncSchema.extensionName)))
                """)
        }
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
