/// A PostgreSQL source's rows for `create`: one statement per query, streamed in libpq's
/// single-row mode (one row in memory, however many the table holds). An area's rows are
/// pre-filtered by `&&` against the boxes' envelopes, which the GiST index answers; the
/// extractor then makes the exact test, the clip and the reprojection itself, as for any
/// source. The `--where` filter is rendered in PostgreSQL's SQL with its text as parameters.
import Geodatabase
import Geometry
import PostgreSQL
import SourceDrivers

extension PostgreSQLFeatureSource {
    public func forEachRow(_ query: RowQuery, _ body: (SourceRow) throws -> Void) throws {
        guard let table = tables[query.layer] else {
            throw SourceError(.unusable, "source \(displayName) has no table \(query.layer)")
        }
        let columns = try query.columns.map { name in
            guard let column = table.column(name) else {
                throw SourceError(.unusable, "source \(displayName): table \(table.name) has no column \(name)")
            }
            return column
        }
        var parameters: [Parameter] = []
        var conditions: [String] = []
        switch query.selection {
        case .all:
            break
        case .keys(let column, let values):
            guard !values.isEmpty else { return }
            conditions.append(try keyCondition(table, column, values, parameters: &parameters))
        case .envelopes(let boxes):
            if let geometry = table.geometry, !boxes.isEmpty {
                conditions.append(Self.envelopeCondition(geometry, boxes, parameters: &parameters))
            }
        }
        if let filter = query.filter {
            conditions.append(filter.postgreSQL(type: { table.column($0)?.type }, parameters: &parameters))
        }
        let select = columns.map { $0.selectExpression(PostgreSQLQuoting.identifier($0.name)) }.joined(separator: ", ")
        let sql = "SELECT \(select) FROM \(table.qualifiedName)"
            + (conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND "))
        try reading {
            try connection.forEachRow(sql, parameters) { row in
                var values: [SourceValue] = []
                values.reserveCapacity(columns.count)
                for (index, column) in columns.enumerated() { values.append(try column.value(in: row, at: index)) }
                try body(SourceRow(columns: query.columns, values: values))
            }
        }
    }

    /// `geom && box OR geom && box…`: each row once, however many boxes it meets.
    static func envelopeCondition(_ geometry: GeometryColumnInfo, _ boxes: [Envelope], parameters: inout [Parameter]) -> String {
        let column = PostgreSQLQuoting.identifier(geometry.name)
        let tests = boxes.map { box -> String in
            let first = parameters.count + 1
            parameters += [.double(box.minX), .double(box.minY), .double(box.maxX), .double(box.maxY)]
            return "\(column) && ST_MakeEnvelope($\(first)::float8, $\(first + 1)::float8, $\(first + 2)::float8, "
                + "$\(first + 3)::float8, \(geometry.srsID))"
        }
        return "(" + tests.joined(separator: " OR ") + ")"
    }

    /// `column IN ($1, $2…)`, each value written as the column reads it.
    private func keyCondition(_ table: CatalogTable, _ name: String, _ values: [SourceValue],
                              parameters: inout [Parameter]) throws -> String {
        guard let column = table.column(name) else {
            throw SourceError(.unusable, "source \(displayName): table \(table.name) has no column \(name)")
        }
        var marks: [String] = []
        for value in values {
            do {
                let (sql, parameter) = try column.parameter(value, placeholder: parameters.count + 1)
                marks.append(sql)
                parameters.append(parameter)
            } catch let refusal as SourceRefusal {
                throw SourceError(.unusable, "source \(displayName): \(table.name).\(name): \(refusal.message)")
            }
        }
        return "\(PostgreSQLQuoting.identifier(name)) IN (\(marks.joined(separator: ", ")))"
    }

    /// A PostgreSQL source has no Related Tables mapping tables among its relationships, so the
    /// extractor never asks this of it; a table named as one is read all the same.
    public func keys(through hop: MappingHop, from keys: [SourceValue]) throws -> [SourceValue] {
        guard let table = tables[hop.mappingTable], let to = table.column(hop.toColumn) else {
            throw SourceError(.unusable, "source \(displayName) has no mapping table \(hop.mappingTable) with a column \(hop.toColumn)")
        }
        var result: Set<SourceValue> = []
        for start in stride(from: 0, to: keys.count, by: 500) {
            var parameters: [Parameter] = []
            let condition = try keyCondition(table, hop.fromColumn, Array(keys[start..<min(start + 500, keys.count)]),
                                             parameters: &parameters)
            try reading {
                try connection.forEachRow("SELECT \(to.selectExpression(PostgreSQLQuoting.identifier(to.name))) "
                                          + "FROM \(table.qualifiedName) WHERE \(condition)", parameters) { row in
                    result.insert(try to.value(in: row, at: 0))
                }
            }
        }
        return Array(result)
    }
}
