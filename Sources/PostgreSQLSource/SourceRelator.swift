/// `pkgbuild source relate` on a PostgreSQL source: a key-based relationship declared in
/// `pkgbuild.relationships` after the same checks a GeoPackage source makes (a column related
/// to itself, keys whose values never compare equal, a geometry key, keys that repeat where
/// the cardinality allows one row), so extraction brings related rows along.
import Geodatabase
import PostgreSQL
import SourceDrivers

/// Declares relationships at a PostgreSQL source.
public struct SourceRelator {
    private let database: SourceDatabase

    /// - Throws: ``SourceError`` as the driver's connection does, `notEnabled` before `source enable`.
    public init(address: String) throws {
        database = try SourceDatabase.connect(address)
        guard try database.isEnabled() else {
            throw SourceError(.notEnabled, "source \(database.displayName) is not sync-enabled (run 'pkgbuild source enable' on it)")
        }
    }

    public var displayName: String { database.displayName }

    /// What a declaration did.
    public struct Outcome: Sendable {
        public var relationship: Relationship
        /// False when the same definition was there already.
        public var changed: Bool
        /// Destination rows whose key matches no origin row.
        public var unmatchedDestinationRows: Int
    }

    /// Declares (or redefines, under the same name) the relationship, in one transaction.
    /// - Throws: ``SourceError`` (`unusable`) naming every problem; nothing is written then.
    public func declare(origin: (table: String, key: String), destination: (table: String, key: String),
                        cardinality: Cardinality, name: String?) throws -> Outcome {
        let relationship = Relationship(name: name ?? "\(origin.table)_\(destination.table)", originTable: origin.table,
                                        originKey: origin.key, destinationTable: destination.table,
                                        destinationKey: destination.key, cardinality: cardinality, storage: .keys)
        return try database.connection.withTransaction {
            let problems = try self.problems(of: relationship)
            guard problems.isEmpty else {
                throw SourceError(.unusable, "source \(displayName): \(origin.table).\(origin.key) -> \(destination.table).\(destination.key) "
                    + "cannot be declared: " + problems.joined(separator: "; "))
            }
            let changed = try database.connection.execute("""
                INSERT INTO pkgbuild.relationships (name, table_schema, origin_table, origin_key, destination_table, destination_key, cardinality)
                VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (name) DO UPDATE SET table_schema = EXCLUDED.table_schema,
                origin_table = EXCLUDED.origin_table, origin_key = EXCLUDED.origin_key, destination_table = EXCLUDED.destination_table,
                destination_key = EXCLUDED.destination_key, cardinality = EXCLUDED.cardinality
                WHERE (relationships.table_schema, relationships.origin_table, relationships.origin_key, relationships.destination_table,
                       relationships.destination_key, relationships.cardinality)
                   IS DISTINCT FROM (EXCLUDED.table_schema, EXCLUDED.origin_table, EXCLUDED.origin_key, EXCLUDED.destination_table,
                                     EXCLUDED.destination_key, EXCLUDED.cardinality)
                """, [.text(relationship.name), .text(database.schema), .text(origin.table), .text(origin.key),
                      .text(destination.table), .text(destination.key), .text(cardinality.rawValue)]) > 0
            return Outcome(relationship: relationship, changed: changed, unmatchedDestinationRows: try unmatched(relationship))
        }
    }

    private func problems(of relationship: Relationship) throws -> [String] {
        let ends = [(relationship.originTable, relationship.originKey), (relationship.destinationTable, relationship.destinationKey)]
        var columns: [SourceColumn] = []
        for (table, key) in ends {
            guard let found = try Catalog.table(table, in: database.schema, on: database.connection) else {
                return ["there is no table \(table) in schema \(database.schema)"]
            }
            guard let column = found.column(key) else { return ["table \(table) has no column \(key)"] }
            if column.feature.baseType == .geometry { return ["\(table).\(key) is a geometry column and cannot be a key"] }
            columns.append(column)
        }
        if ends[0] == ends[1] { return ["\(ends[0].0).\(ends[0].1) is related to itself"] }
        let kinds = columns.map { Self.kind(of: $0.feature.baseType) }
        if kinds[0] != kinds[1] {
            return ["\(ends[0].0).\(ends[0].1) is \(columns[0].typeName) and \(ends[1].0).\(ends[1].1) is \(columns[1].typeName): "
                    + "their values never compare equal"]
        }
        var problems: [String] = []
        if relationship.cardinality != .manyToMany, try repeats(ends[0]) {
            problems.append("\(ends[0].0).\(ends[0].1) repeats, so a destination row would belong to several origin rows: "
                + "\(relationship.cardinality.rawValue) needs a unique origin key (declare it many-to-many if that is meant)")
        }
        if relationship.cardinality == .oneToOne, try repeats(ends[1]) {
            problems.append("\(ends[1].0).\(ends[1].1) repeats, so an origin row would have several destination rows: "
                + "one-to-one allows one (declare it one-to-many if that is meant)")
        }
        return problems
    }

    /// Numbers compare with numbers, everything else as text.
    private static func kind(of type: BaseType) -> String {
        [.integer, .real, .boolean].contains(type) ? "number" : type == .blob ? "bytes" : "text"
    }

    private func repeats(_ end: (String, String)) throws -> Bool {
        let key = PostgreSQLQuoting.identifier(end.1)
        return try database.connection.queryFirst("""
            SELECT 1 FROM \(database.qualified(end.0)) WHERE \(key) IS NOT NULL GROUP BY \(key) HAVING count(*) > 1 LIMIT 1
            """) != nil
    }

    private func unmatched(_ r: Relationship) throws -> Int {
        let (o, d) = (database.qualified(r.originTable), database.qualified(r.destinationTable))
        let (ok, dk) = (PostgreSQLQuoting.identifier(r.originKey), PostgreSQLQuoting.identifier(r.destinationKey))
        return try database.connection.queryFirst("""
            SELECT count(*) FROM \(d) AS d WHERE d.\(dk) IS NOT NULL AND NOT EXISTS (SELECT 1 FROM \(o) AS o WHERE o.\(ok) = d.\(dk))
            """)?.int(0) ?? 0
    }
}
