/// A GeoPackage's layers in neutral terms: `gpkg_contents` and the schema reader's columns,
/// with what the pragmas add (UNIQUE constraints, foreign keys) and what only the table's
/// `CREATE TABLE` statement says (CHECK, collations, AUTOINCREMENT).
import Geodatabase
import Geometry
import SourceDrivers
import SQLite

extension GeoPackageFeatureSource {
    public func layers() throws -> [FeatureLayer] {
        // The title and description as stored: text that is not UTF-8 is copied byte for byte.
        var described: [SQLName: (SourceValue, SourceValue)] = [:]
        for row in try connection.query("SELECT table_name, identifier, description FROM gpkg_contents") {
            guard let name = row[0].stringValue else { continue }
            described[SQLName(name)] = (SourceValue(row[1], isGeometry: false), SourceValue(row[2], isGeometry: false))
        }
        return try schema.layers.compactMap { info in
            let kind: FeatureLayer.Kind
            switch info.kind {
            case .features: kind = .features
            case .attributes: kind = .attributes
            default: return nil
            }
            let (identifier, description) = described[SQLName(info.name)] ?? (.null, .null)
            return FeatureLayer(name: info.name, kind: kind, identifier: identifier, description: description,
                                schema: try featureSchema(of: info), globalIDColumn: info.globalIDColumn)
        }
    }

    /// The layer's schema; a layer registered without a table has no columns and no key.
    private func featureSchema(of info: LayerInfo) throws -> FeatureSchema {
        guard let row = try connection.query("SELECT name, sql FROM sqlite_master WHERE type = 'table' AND lower(name) = lower(?)",
                                             [.text(info.name)]).first, let table = row[0].stringValue else {
            return FeatureSchema(columns: [], primaryKey: nil, geometry: info.geometryColumn)
        }
        let declared = CreateTableSQL.constraints(in: row[1].stringValue ?? "")
        let unique = try uniqueColumnSets(of: table)
        let columns = info.fields.map { field in
            FeatureColumn(name: field.name, declaredType: field.declaredType,
                          baseType: BaseType(geoPackageType: field.declaredType), isNotNull: field.isNotNull,
                          defaultSQL: field.defaultSQL,
                          isUnique: unique.contains { $0.count == 1 && SQLName($0[0]) == SQLName(field.name) },
                          collation: declared.collations.first { SQLName($0.key) == SQLName(field.name) }?.value)
        }
        return FeatureSchema(columns: columns, primaryKey: info.primaryKey,
                             primaryKeyAutoincrements: info.primaryKey != nil && declared.autoincrement,
                             geometry: info.geometryColumn, uniqueColumnSets: unique.filter { $0.count > 1 },
                             checks: declared.checks, foreignKeys: try foreignKeys(of: table))
    }

    /// The column sets of the table's UNIQUE constraints (not of indexes made apart from the
    /// table, which the package does not copy), in declaration order.
    private func uniqueColumnSets(of table: String) throws -> [[String]] {
        try connection.query("SELECT name FROM pragma_index_list(?) WHERE origin = 'u' ORDER BY seq DESC", [.text(table)])
            .compactMap { $0[0].stringValue }
            .map { index in
                try connection.query("SELECT name FROM pragma_index_info(?) ORDER BY seqno", [.text(index)])
                    .compactMap { $0[0].stringValue }
            }
    }

    private func foreignKeys(of table: String) throws -> [ForeignKey] {
        let rows = try connection.query("""
            SELECT id, "table", "from", "to", on_update, on_delete FROM pragma_foreign_key_list(?) ORDER BY id DESC, seq
            """, [.text(table)])
        var keys: [(id: Int64, key: ForeignKey)] = []
        for row in rows {
            let id = row[0].int64Value ?? 0
            if keys.last?.id != id {
                let action = { (value: SQLiteValue) in value.stringValue.flatMap { $0 == "NO ACTION" ? nil : $0 } }
                keys.append((id, ForeignKey(columns: [], table: row[1].stringValue ?? "", referencedColumns: [],
                                            onUpdate: action(row[4]), onDelete: action(row[5]))))
            }
            keys[keys.count - 1].key.columns.append(row[2].stringValue ?? "")
            if let to = row[3].stringValue { keys[keys.count - 1].key.referencedColumns.append(to) }
        }
        return keys.map(\.key)
    }
}
