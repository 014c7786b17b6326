/// Reading the schema of any GeoPackage, GDAL-written ones included, into plain values.
///
/// ```swift
/// let schema = try GeoPackageSchema.read(from: connection)
/// for layer in schema.layers where layer.kind == .features { print(layer.name, layer.geometryColumn!) }
/// ```
///
/// Sources, in the order they are read:
/// - `gpkg_spatial_ref_sys` -> ``spatialReferenceSystems``
/// - `gpkg_contents` -> one ``LayerInfo`` per row (features, attributes, tiles, others),
///   with `gpkg_geometry_columns` (type, SRS, z, m), `pragma_table_info` (name, declared
///   type, NOT NULL, default, primary key), `gpkg_data_columns` per field, and
///   `gpkg_extensions` (`gpkg_rtree_index`) for the spatial index.
/// - `gpkg_data_column_constraints` -> ``constraints`` (enum rows grouped by name).
/// - `gpkgext_relations` (Related Tables Extension) and `pkgbuild_relationships` (ours,
///   key-based) -> ``relationships``.
///
/// Optional tables that are absent read as empty. A file without `gpkg_contents` or
/// `gpkg_spatial_ref_sys` is refused with ``GeodatabaseError/Kind/notAGeoPackage``.
import SQLite

/// Everything a GeoPackage declares about its content.
public struct GeoPackageSchema: Sendable, Hashable {
    public var spatialReferenceSystems: [SpatialReferenceInfo]
    /// Every table of `gpkg_contents`, in the order of that table's rows.
    public var layers: [LayerInfo]
    /// Data column constraints by name.
    public var constraints: [String: DataColumnConstraint]
    /// Related Tables Extension relations first, then key-based ones.
    public var relationships: [Relationship]

    public init(spatialReferenceSystems: [SpatialReferenceInfo] = [], layers: [LayerInfo] = [],
                constraints: [String: DataColumnConstraint] = [:], relationships: [Relationship] = []) {
        self.spatialReferenceSystems = spatialReferenceSystems
        self.layers = layers
        self.constraints = constraints
        self.relationships = relationships
    }

    /// The layer of that name, compared without letter case as SQLite does.
    public func layer(named name: String) -> LayerInfo? {
        layers.first { SQLName($0.name) == SQLName(name) }
    }

    /// The SRS of that id.
    public func spatialReferenceSystem(id: Int64) -> SpatialReferenceInfo? {
        spatialReferenceSystems.first { $0.srsID == id }
    }

    /// Reads the whole schema through `connection` (in one read transaction, so it describes
    /// one state of the file).
    /// - Throws: ``GeodatabaseError`` (`notAGeoPackage`) when the core tables are missing;
    ///   `SQLiteError` when SQLite fails.
    public static func read(from connection: Connection) throws -> GeoPackageSchema {
        try connection.withTransaction {
            for core in ["gpkg_contents", "gpkg_spatial_ref_sys"] where try !tableExists(core, in: connection) {
                throw GeodatabaseError(.notAGeoPackage,
                                       "\(connection.path) is not a GeoPackage: it has no \(core) table")
            }
            var schema = GeoPackageSchema()
            schema.spatialReferenceSystems = try readSpatialReferenceSystems(connection)
            schema.constraints = try readConstraints(connection)
            schema.layers = try readLayers(connection)
            schema.relationships = try readRelationships(connection)
            return schema
        }
    }
}

/// The relationships alone: the Related Tables Extension's, then those `source relate` declared.
func readRelationships(_ connection: Connection) throws -> [Relationship] {
    try readRelatedTablesRelations(connection) + readKeyRelationships(connection)
}

// MARK: - Pieces (also used by the sync code)

/// True when a table (or view) of that name exists in the main database, any letter case (as
/// SQLite matches names): the one check of a table's presence for every module above.
public func tableExists(_ name: String, in connection: Connection) throws -> Bool {
    try connection.scalar("SELECT 1 FROM sqlite_master WHERE type IN ('table', 'view') AND lower(name) = lower(?)",
                          [.text(name)]) != nil
}

/// The table's name as the schema spells it, for a name given in any letter case.
func canonicalTableName(_ name: String, in connection: Connection) throws -> String? {
    try connection.scalar("SELECT name FROM sqlite_master WHERE type = 'table' AND lower(name) = lower(?)",
                          [.text(name)])?.stringValue
}

/// The columns of a table from `pragma_table_info`, without data column descriptions.
func readFields(of table: String, in connection: Connection) throws -> [FieldInfo] {
    try connection.query("SELECT name, type, \"notnull\", dflt_value, pk FROM pragma_table_info(?) ORDER BY cid",
                         [.text(table)]).map { row in
        FieldInfo(name: row[0].stringValue ?? "", declaredType: row[1].stringValue ?? "",
                  isNotNull: row[2].int64Value == 1, defaultSQL: row[3].stringValue,
                  primaryKeyIndex: Int(row[4].int64Value ?? 0))
    }
}

/// The single INTEGER PRIMARY KEY column (the rowid alias GeoPackage requires), if any.
func integerPrimaryKey(of fields: [FieldInfo]) -> String? {
    let keys = fields.filter { $0.primaryKeyIndex > 0 }
    guard keys.count == 1, keys[0].declaredType.uppercased() == "INTEGER" else { return nil }
    return keys[0].name
}

private func readSpatialReferenceSystems(_ connection: Connection) throws -> [SpatialReferenceInfo] {
    try connection.query("""
        SELECT srs_id, srs_name, organization, organization_coordsys_id, definition, description
        FROM gpkg_spatial_ref_sys ORDER BY srs_id
        """).map { row in
        SpatialReferenceInfo(srsID: row[0].int64Value ?? 0, name: row[1].stringValue ?? "",
                             organization: row[2].stringValue ?? "",
                             organizationCoordsysID: row[3].int64Value ?? 0,
                             definition: row[4].stringValue ?? "", description: row[5].stringValue)
    }
}

private func readConstraints(_ connection: Connection) throws -> [String: DataColumnConstraint] {
    guard try tableExists("gpkg_data_column_constraints", in: connection) else { return [:] }
    var constraints: [String: DataColumnConstraint] = [:]
    var descriptions: [String: String?] = [:]
    let rows = try connection.query("""
        SELECT constraint_name, lower(constraint_type), value, min, min_is_inclusive, max, max_is_inclusive,
               description
        FROM gpkg_data_column_constraints ORDER BY constraint_name, rowid
        """)
    for row in rows {
        guard let name = row[0].stringValue, let type = row[1].stringValue else { continue }
        let description = row[7].stringValue
        switch type {
        case "enum":
            // GDAL keeps a coded domain's own description in an extra enum row named
            // `_<name>_domain_description`: a description, not a constraint.
            if name.hasPrefix("_") && name.hasSuffix("_domain_description") {
                descriptions[String(name.dropFirst().dropLast("_domain_description".count))] = description
                continue
            }
            guard !row[2].isNull else { continue }
            let value = DataColumnConstraint.EnumValue(value: row[2].stringValue ?? row[2].description,
                                                       description: description)
            if case .enumeration(let values)? = constraints[name]?.rule {
                constraints[name]?.rule = .enumeration(values + [value])
            } else {
                constraints[name] = DataColumnConstraint(name: name, rule: .enumeration([value]))
            }
        case "range":
            constraints[name] = DataColumnConstraint(
                name: name,
                rule: .range(min: row[3].doubleValue, minInclusive: row[4].int64Value == 1,
                             max: row[5].doubleValue, maxInclusive: row[6].int64Value == 1),
                description: description)
        case "glob":
            constraints[name] = DataColumnConstraint(name: name, rule: .glob(row[2].stringValue ?? ""),
                                                     description: description)
        default:
            // The spec knows only these three; an unknown type is not ours to interpret.
            continue
        }
    }
    for (name, description) in descriptions where constraints[name] != nil {
        constraints[name]?.description = description
    }
    return constraints
}

private func readLayers(_ connection: Connection) throws -> [LayerInfo] {
    let hasGeometryColumns = try tableExists("gpkg_geometry_columns", in: connection)
    let hasDataColumns = try tableExists("gpkg_data_columns", in: connection)
    let hasExtensions = try tableExists("gpkg_extensions", in: connection)
    let contents = try connection.query("""
        SELECT table_name, data_type, identifier, description, min_x, min_y, max_x, max_y, srs_id
        FROM gpkg_contents ORDER BY rowid
        """)
    var layers: [LayerInfo] = []
    for row in contents {
        guard let name = row[0].stringValue else { continue }
        var layer = LayerInfo(name: name, kind: LayerKind(dataType: row[1].stringValue ?? ""),
                              identifier: row[2].stringValue, description: row[3].stringValue,
                              minX: row[4].doubleValue, minY: row[5].doubleValue,
                              maxX: row[6].doubleValue, maxY: row[7].doubleValue, srsID: row[8].int64Value)
        // A registered table that does not exist is the file's problem, not a reason to fail
        // reading the rest: it shows up with no fields.
        guard let actual = try canonicalTableName(name, in: connection) else {
            layers.append(layer)
            continue
        }
        layer.fields = try readFields(of: actual, in: connection)
        layer.primaryKey = integerPrimaryKey(of: layer.fields)
        layer.globalIDColumn = layer.fields.first { SQLName($0.name) == "globalid" }?.name
        if hasGeometryColumns, let geometry = try connection.query("""
            SELECT column_name, upper(geometry_type_name), srs_id, z, m FROM gpkg_geometry_columns
            WHERE lower(table_name) = lower(?)
            """, [.text(name)]).first {
            layer.geometryColumn = GeometryColumnInfo(
                name: geometry[0].stringValue ?? "", geometryTypeName: geometry[1].stringValue ?? "",
                srsID: geometry[2].int64Value ?? 0, z: Int(geometry[3].int64Value ?? 0),
                m: Int(geometry[4].int64Value ?? 0))
        }
        if let geometry = layer.geometryColumn, hasExtensions {
            let registered = try connection.scalar("""
                SELECT 1 FROM gpkg_extensions WHERE extension_name = 'gpkg_rtree_index'
                AND lower(table_name) = lower(?) AND lower(column_name) = lower(?)
                """, [.text(name), .text(geometry.name)]) != nil
            layer.hasSpatialIndex = try registered
                && tableExists(GeometryColumnInfo.rtreeName(table: name, column: geometry.name), in: connection)
        }
        if hasDataColumns {
            for column in try connection.query("""
                SELECT column_name, name, title, description, mime_type, constraint_name FROM gpkg_data_columns
                WHERE lower(table_name) = lower(?)
                """, [.text(name)]) {
                guard let columnName = column[0].stringValue,
                      let index = layer.fields.firstIndex(where: { SQLName($0.name) == SQLName(columnName) })
                else { continue }
                layer.fields[index].dataColumn = DataColumnInfo(
                    name: column[1].stringValue, title: column[2].stringValue, description: column[3].stringValue,
                    mimeType: column[4].stringValue, constraintName: column[5].stringValue)
            }
        }
        layers.append(layer)
    }
    return layers
}

private func readRelatedTablesRelations(_ connection: Connection) throws -> [Relationship] {
    guard try tableExists("gpkgext_relations", in: connection) else { return [] }
    return try connection.query("""
        SELECT mapping_table_name, base_table_name, base_primary_column, related_table_name,
               related_primary_column, relation_name
        FROM gpkgext_relations ORDER BY id
        """).map { row in
        let mapping = row[0].stringValue ?? ""
        // The extension allows any number of links either way: many-to-many.
        return Relationship(name: mapping, originTable: row[1].stringValue ?? "",
                            originKey: row[2].stringValue ?? "", destinationTable: row[3].stringValue ?? "",
                            destinationKey: row[4].stringValue ?? "", cardinality: .manyToMany,
                            storage: .mappingTable(name: mapping, relationName: row[5].stringValue ?? ""))
    }
}

private func readKeyRelationships(_ connection: Connection) throws -> [Relationship] {
    guard try tableExists(SyncSchema.relationshipsTable, in: connection) else { return [] }
    return try connection.query("""
        SELECT name, origin_table, origin_key, destination_table, destination_key, cardinality
        FROM pkgbuild_relationships ORDER BY rowid
        """).map { row in
        Relationship(name: row[0].stringValue ?? "", originTable: row[1].stringValue ?? "",
                     originKey: row[2].stringValue ?? "", destinationTable: row[3].stringValue ?? "",
                     destinationKey: row[4].stringValue ?? "",
                     cardinality: Cardinality(rawValue: row[5].stringValue ?? "") ?? .oneToMany, storage: .keys)
    }
}
