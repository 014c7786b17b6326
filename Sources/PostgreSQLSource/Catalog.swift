/// The source's tables as PostgreSQL's catalog describes them: pg_class and pg_attribute for
/// the columns (domains resolved to their base type), pg_constraint for keys, UNIQUE, CHECK and
/// foreign keys, PostGIS's geometry_columns for the geometry. Three queries a schema, whatever
/// the number of tables.
import Geodatabase
import PostgreSQL
import SourceDrivers

enum Catalog {
    /// The ordinary and partitioned tables of `schema` (not their partitions, not tables of an
    /// extension such as PostGIS's spatial_ref_sys, none of pkgbuild's own schema), in the
    /// order they were made (as ogr2ogr loaded them, as a GeoPackage lists its layers).
    static func tables(in schema: String, on connection: Connection) throws -> [CatalogTable] {
        try read(schema, table: nil, on: connection)
    }

    /// One table of `schema`, nil when there is no such table.
    static func table(_ name: String, in schema: String, on connection: Connection) throws -> CatalogTable? {
        try read(schema, table: name, on: connection).first
    }

    private static func read(_ schema: String, table: String?, on connection: Connection) throws -> [CatalogTable] {
        guard schema != TrackingSchema.name else { return [] }
        let parameters: [Parameter] = [.text(schema), table.map(Parameter.text) ?? .null]
        let geometries = try geometryColumns(parameters, on: connection)
        let keys = try constraintColumns(parameters, on: connection)
        let checks = try checkConstraints(parameters, on: connection)
        var tables: [CatalogTable] = []
        try connection.forEachRow(columnsSQL, parameters) { row in
            let tableName = row.string(0) ?? ""
            if tables.last?.name != tableName {
                let geometry = geometries[tableName]
                tables.append(CatalogTable(schema: schema, name: tableName, columns: [], primaryKey: [], geometry: geometry,
                                           uniqueColumnSets: [], checks: checks[tableName] ?? [], foreignKeys: [],
                                           globalIDColumn: nil))
            }
            let column = try sourceColumn(row, geometry: tables[tables.count - 1].geometry)
            if column.name.lowercased() == "globalid" && tables[tables.count - 1].globalIDColumn == nil {
                tables[tables.count - 1].globalIDColumn = column.name
            }
            tables[tables.count - 1].columns.append(column)
        }
        return tables.map { keys.apply(to: $0) }
    }

    /// Which tables of the schema: `$1` the schema, `$2` one table's name or NULL for all.
    static let tableCondition = """
        n.nspname = $1 AND ($2::text IS NULL OR c.relname = $2::text) AND c.relkind IN ('r', 'p') \
        AND NOT c.relispartition \
        AND NOT EXISTS (SELECT 1 FROM pg_depend e WHERE e.classid = 'pg_class'::regclass AND e.objid = c.oid AND e.deptype = 'e')
        """

    /// A row per column: table, name, type as formatted, cast type, base type's name and
    /// category, length of a char type, NOT NULL (the column's or its domain's), default. The
    /// cast type has no modifier, and char and bit, whose bare names mean a length of 1, are
    /// cast as their unbounded forms, so a cast never cuts a value short.
    private static let columnsSQL = """
        SELECT c.relname, a.attname, format_type(a.atttypid, a.atttypmod), \
        CASE t.typname WHEN 'bpchar' THEN 'bpchar' WHEN '_bpchar' THEN 'bpchar[]' WHEN 'bit' THEN 'varbit' \
        WHEN '_bit' THEN 'varbit[]' ELSE format_type(a.atttypid, NULL) END, \
        b.typname, b.typcategory, \
        CASE WHEN b.typname IN ('varchar', 'bpchar') AND COALESCE(NULLIF(t.typtypmod, -1), a.atttypmod) > 4 \
        THEN COALESCE(NULLIF(t.typtypmod, -1), a.atttypmod) - 4 END, \
        a.attnotnull OR t.typnotnull, pg_get_expr(d.adbin, d.adrelid), a.attidentity <> '' OR a.attgenerated <> '' \
        FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace \
        JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped \
        JOIN pg_type t ON t.oid = a.atttypid \
        JOIN pg_type b ON b.oid = CASE WHEN t.typtype = 'd' THEN t.typbasetype ELSE t.oid END \
        LEFT JOIN pg_attrdef d ON d.adrelid = c.oid AND d.adnum = a.attnum \
        WHERE \(tableCondition) ORDER BY c.oid, a.attnum
        """

    private static func sourceColumn(_ row: Row, geometry: GeometryColumnInfo?) throws -> SourceColumn {
        let name = row.string(1) ?? ""
        let type = ColumnType(typeName: row.string(4) ?? "", category: row.string(5) ?? "",
                              length: try row.int(6), isGlobalID: name.lowercased() == "globalid",
                              geometry: geometry?.name == name ? geometry : nil)
        // An identity or generated column's value is the database's: no default to copy.
        let isNumbered = try row.bool(9) == true
        let defaultSQL = isNumbered ? nil : row.string(8).flatMap { CatalogDefault.sqlite($0, type: type) }
        let feature = FeatureColumn(name: name, declaredType: type.declaredType, baseType: type.baseType,
                                    isNotNull: try row.bool(7) == true, defaultSQL: defaultSQL)
        return SourceColumn(name: name, typeName: row.string(2) ?? "", feature: feature, type: type,
                            castType: row.string(3) ?? "text")
    }

    /// The geometry column of each table (the first, when a table has several), from
    /// geometry_columns: its type without the M suffix PostGIS adds, Z and M from the dimensions.
    private static func geometryColumns(_ parameters: [Parameter], on connection: Connection) throws -> [String: GeometryColumnInfo] {
        var result: [String: GeometryColumnInfo] = [:]
        let rows = try connection.query("""
            SELECT g.f_table_name, g.f_geometry_column, upper(g.type), g.coord_dimension, g.srid
            FROM geometry_columns g JOIN pg_namespace n ON n.nspname = g.f_table_schema
            JOIN pg_class c ON c.relnamespace = n.oid AND c.relname = g.f_table_name
            JOIN pg_attribute a ON a.attrelid = c.oid AND a.attname = g.f_geometry_column
            WHERE \(tableCondition) ORDER BY g.f_table_name, a.attnum
            """, parameters)
        for row in rows {
            let table = row.string(0) ?? ""
            guard result[table] == nil else { continue }
            var typeName = row.string(2) ?? "GEOMETRY"
            let dimensions = try row.int(3) ?? 2
            let hasM = typeName.hasSuffix("M") || dimensions == 4
            if typeName.hasSuffix("M") { typeName.removeLast() }
            let hasZ = dimensions == 4 || (dimensions == 3 && !hasM)
            result[table] = GeometryColumnInfo(name: row.string(1) ?? "", geometryTypeName: typeName,
                                               srsID: Int64(try row.int(4) ?? 0), z: hasZ ? 1 : 0, m: hasM ? 1 : 0)
        }
        return result
    }

    /// The CHECK constraints of each table, translated; those that cannot be are left out.
    private static func checkConstraints(_ parameters: [Parameter], on connection: Connection) throws -> [String: [String]] {
        var result: [String: [String]] = [:]
        let rows = try connection.query("""
            SELECT c.relname, pg_get_constraintdef(k.oid) FROM pg_constraint k
            JOIN pg_class c ON c.oid = k.conrelid JOIN pg_namespace n ON n.oid = c.relnamespace
            WHERE k.contype = 'c' AND \(tableCondition) ORDER BY c.relname, k.conname
            """, parameters)
        // A domain's checks hold for each column of that domain (domains over domains too).
        let domainRows = try connection.query("""
            SELECT c.relname, pg_get_constraintdef(k.oid), a.attname FROM pg_class c
            JOIN pg_namespace n ON n.oid = c.relnamespace
            JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
            CROSS JOIN LATERAL (WITH RECURSIVE chain(oid) AS (SELECT a.atttypid UNION ALL
              SELECT t.typbasetype FROM pg_type t JOIN chain ON t.oid = chain.oid WHERE t.typtype = 'd') SELECT oid FROM chain) d
            JOIN pg_constraint k ON k.contypid = d.oid AND k.contype = 'c'
            WHERE \(tableCondition) ORDER BY c.oid, a.attnum, k.conname
            """, parameters)
        for row in rows + domainRows {
            guard let table = row.string(0), let definition = row.string(1),
                  let check = CatalogCheck.sqlite(definition, value: row.count > 2 ? row.string(2) : nil) else { continue }
            result[table, default: []].append(check)
        }
        return result
    }
}
