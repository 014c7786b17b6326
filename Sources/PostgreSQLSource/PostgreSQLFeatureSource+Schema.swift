/// A PostgreSQL source's layers and relationships in neutral terms: a table with a
/// geometry_columns entry is a feature layer, any other an attribute table; foreign keys
/// between the schema's tables and the key-based relationships `source relate` declared in
/// pkgbuild.relationships are its relationships.
import Geodatabase
import Geometry
import PostgreSQL
import SourceDrivers

extension PostgreSQLFeatureSource {
    /// Every table of the schema. One without a one-column integer primary key is a layer
    /// without one: `create` names it and refuses it (a package's table needs its `fid`),
    /// rather than leave it out unseen.
    public func layers() throws -> [FeatureLayer] {
        let comments = try tableComments()
        return tableNames.compactMap { tables[$0] }.map { table in
            FeatureLayer(name: table.name, kind: table.geometry == nil ? .attributes : .features,
                         identifier: .text(table.name), description: comments[table.name].map(SourceValue.text) ?? .null,
                         schema: featureSchema(of: table), globalIDColumn: table.globalIDColumn)
        }
    }

    func featureSchema(of table: CatalogTable) -> FeatureSchema {
        FeatureSchema(columns: table.columns.map(\.feature), primaryKey: table.integerPrimaryKey, primaryKeyAutoincrements: false,
                      geometry: table.geometry, uniqueColumnSets: table.uniqueColumnSets, checks: table.checks,
                      foreignKeys: table.foreignKeys)
    }

    /// The tables' comments (`COMMENT ON TABLE`, where ogr2ogr puts a layer's description).
    private func tableComments() throws -> [String: String] {
        var comments: [String: String] = [:]
        try reading {
            for row in try connection.query("""
                SELECT c.relname, obj_description(c.oid, 'pg_class') FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
                WHERE n.nspname = $1 AND obj_description(c.oid, 'pg_class') IS NOT NULL
                """, [.text(schema)]) {
                if let name = row.string(0), let comment = row.string(1) { comments[name] = comment }
            }
        }
        return comments
    }

    /// Each one-column foreign key as a key-based relationship (the referenced table its
    /// origin; one-to-one when the referencing column is unique), then those of
    /// pkgbuild.relationships the foreign keys do not already give.
    public func relationships() throws -> [Relationship] {
        var result: [Relationship] = []
        for name in tableNames {
            guard let table = tables[name] else { continue }
            for key in table.foreignKeys where key.columns.count == 1 && tables[key.table] != nil {
                let referenced = key.referencedColumns.first ?? tables[key.table]?.primaryKey.first ?? ""
                let unique = table.column(key.columns[0])?.feature.isUnique == true || table.primaryKey == key.columns
                result.append(Relationship(name: "\(key.table)_\(table.name)_\(key.columns[0])", originTable: key.table,
                                           originKey: referenced, destinationTable: table.name, destinationKey: key.columns[0],
                                           cardinality: unique ? .oneToOne : .oneToMany, storage: .keys))
            }
        }
        for declared in try declaredRelationships() where !result.contains(where: { $0.sameEnds(as: declared) }) {
            result.append(declared)
        }
        return result
    }

    /// The rows of pkgbuild.relationships for this schema whose tables are in it.
    private func declaredRelationships() throws -> [Relationship] {
        try reading {
            guard try connection.queryFirst("SELECT to_regclass('pkgbuild.relationships') IS NOT NULL")?.bool(0) == true else { return [] }
            return try connection.query("""
                SELECT name, origin_table, origin_key, destination_table, destination_key, cardinality
                FROM pkgbuild.relationships WHERE table_schema = $1 ORDER BY name
                """, [.text(schema)]).compactMap { row in
                guard let origin = row.string(1), let destination = row.string(3), tables[origin] != nil, tables[destination] != nil,
                      let cardinality = row.string(5).flatMap(Cardinality.init(rawValue:)) else { return nil }
                return Relationship(name: row.string(0) ?? "", originTable: origin, originKey: row.string(2) ?? "",
                                    destinationTable: destination, destinationKey: row.string(4) ?? "",
                                    cardinality: cardinality, storage: .keys)
            }
        }
    }
}

extension Relationship {
    /// The same two tables and keys, whatever the name and cardinality.
    func sameEnds(as other: Relationship) -> Bool {
        (originTable, originKey, destinationTable, destinationKey)
            == (other.originTable, other.originKey, other.destinationTable, other.destinationKey)
    }
}
