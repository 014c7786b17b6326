/// A GeoPackage's rows for `create`: streamed from one statement per pass, an area's
/// pre-filtered by the layer's R-tree, the `--where` filter rendered in SQLite's SQL.
import Geodatabase
import Geometry
import SourceDrivers
import SQLite

extension GeoPackageFeatureSource {
    public func forEachRow(_ query: RowQuery, _ body: (SourceRow) throws -> Void) throws {
        guard let layer = schema.layer(named: query.layer) else {
            throw SourceError(.unusable, "source \(displayName) has no layer \(query.layer)")
        }
        let t = SQL.identifier(layer.name)
        switch query.selection {
        case .all:
            try stream(query, layer: layer, condition: nil, arguments: [], body)
        case .keys(let column, let values):
            guard !values.isEmpty else { return }
            let marks = Array(repeating: "?", count: values.count).joined(separator: ", ")
            try stream(query, layer: layer, condition: "\(SQL.identifier(column)) IN (\(marks))",
                       arguments: try values.map { try $0.sqliteValue() }, body)
        case .envelopes(let boxes):
            guard layer.hasSpatialIndex, let g = layer.geometryColumn, let primaryKey = layer.primaryKey else {
                return try stream(query, layer: layer, condition: nil, arguments: [], body)
            }
            let rtree = GeometryColumnInfo.rtreeName(table: layer.name, column: g.name)
            // The R-tree drives the loop (CROSS JOIN keeps it outermost), so rows stream
            // without SQLite first collecting every matching id; its columns hide inside the
            // sub-select, so a filter's column names stay unambiguous. One pass per box, each
            // skipping what an earlier box already took, so no row comes twice.
            for (i, box) in boxes.enumerated() {
                var conditions = ["minx <= ? AND maxx >= ? AND miny <= ? AND maxy >= ?"]
                var arguments: [SQLiteValue] = [.real(box.maxX), .real(box.minX), .real(box.maxY), .real(box.minY)]
                for earlier in boxes[..<i] {
                    conditions.append("NOT (minx <= ? AND maxx >= ? AND miny <= ? AND maxy >= ?)")
                    arguments += [.real(earlier.maxX), .real(earlier.minX), .real(earlier.maxY), .real(earlier.minY)]
                }
                let prefilter = "(SELECT id AS pkgbuild_rtree_id FROM \(SQL.identifier(rtree)) "
                    + "WHERE \(conditions.joined(separator: " AND "))) AS pkgbuild_rtree CROSS JOIN "
                try stream(query, layer: layer, condition: "\(t).\(SQL.identifier(primaryKey)) = pkgbuild_rtree_id",
                           arguments: arguments, from: prefilter, body)
            }
        }
    }

    /// One statement's rows: those meeting `condition` and the query's filter.
    private func stream(_ query: RowQuery, layer: LayerInfo, condition: String?, arguments: [SQLiteValue],
                        from prefix: String = "", _ body: (SourceRow) throws -> Void) throws {
        var conditions: [String] = []
        if let condition { conditions.append(condition) }
        if let filter = query.filter { conditions.append(filter.sqlite) }
        let t = SQL.identifier(layer.name)
        let sql = "SELECT \(query.columns.map { "\(t).\(SQL.identifier($0))" }.joined(separator: ", ")) FROM \(prefix)\(t)"
            + (conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND "))
        let statement = try connection.prepare(sql)
        try statement.bind(arguments)
        let geometry = layer.geometryColumn.map { SQLName($0.name) }
        let isGeometry = query.columns.map { SQLName($0) == geometry }
        while try statement.step() {
            let values = statement.values
            var row: [SourceValue] = []
            row.reserveCapacity(values.count)
            for (value, geometric) in zip(values, isGeometry) { row.append(SourceValue(value, isGeometry: geometric)) }
            try body(SourceRow(columns: query.columns, values: row))
        }
    }

    public func keys(through hop: MappingHop, from keys: [SourceValue]) throws -> [SourceValue] {
        var result: Set<SourceValue> = []
        for chunk in stride(from: 0, to: keys.count, by: 500) {
            let part = try keys[chunk..<min(chunk + 500, keys.count)].map { try $0.sqliteValue() }
            let marks = Array(repeating: "?", count: part.count).joined(separator: ", ")
            for row in try connection.query("SELECT \(hop.toColumn) FROM \(SQL.identifier(hop.mappingTable)) "
                                            + "WHERE \(hop.fromColumn) IN (\(marks))", part) {
                result.insert(SourceValue(row[0], isGeometry: false))
            }
        }
        return Array(result)
    }
}
