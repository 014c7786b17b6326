/// A source table as the catalog describes it: its columns with how each crosses the seam,
/// its keys and constraints (translated into the package's SQLite SQL where they can be), its
/// geometry column as geometry_columns gives it.
import Geodatabase
import Geometry
import PostgreSQL
import SourceDrivers

/// One column of a source table, with how its values cross the seam.
struct SourceColumn: Sendable, Hashable {
    var name: String
    /// `format_type(atttypid, atttypmod)`: `integer`, `character varying(80)`,
    /// `geometry(Point,4326)`, `timestamp with time zone`, `text[]`...
    var typeName: String
    /// As the package declares the column: its GeoPackage type, base type, NOT NULL, default
    /// (SQLite SQL, nil when not translatable), UNIQUE.
    var feature: FeatureColumn
    /// How its values are read and written.
    var type: ColumnType
    /// The type a placeholder is cast to: the column's type without its modifier (so a cast
    /// never truncates; the column's own rules apply on assignment), a domain by its name.
    var castType: String

    /// The SELECT expression yielding the value as the seam carries it (`quoted` is the column,
    /// already quoted).
    func selectExpression(_ quoted: String) -> String { type.selectExpression(quoted) }

    /// The value of ``selectExpression(_:)`` in a result row (text format).
    /// - Throws: ``PostgreSQLError`` for text that is not what the type writes.
    func value(in row: Row, at index: Int) throws -> SourceValue {
        try type.value(in: row, at: index)
    }

    /// How `value` is written into this column: the placeholder SQL for `$placeholder` and its
    /// parameter.
    /// - Throws: ``SourceRefusal`` when the value cannot be of this column's type (a blob for a
    ///   number); text the server then refuses comes back as the server's error.
    func parameter(_ value: SourceValue, placeholder: Int) throws -> (sql: String, parameter: Parameter) {
        let mark = "$\(placeholder)"
        if case .geometry(let info) = type {
            return ("ST_GeomFromWKB(\(mark), \(info.srsID))", try type.parameter(value, column: name))
        }
        // bytea parameters go typed as bytea already; a cast to a domain over it still applies.
        return ("\(mark)::\(castType)", try type.parameter(value, column: name))
    }
}

/// A table of the source's schema: ordinary or partitioned, with or without geometry.
struct CatalogTable: Sendable, Hashable {
    var schema: String
    var name: String
    /// In table order.
    var columns: [SourceColumn]
    /// The primary key's columns, empty when the table has none.
    var primaryKey: [String]
    /// From geometry_columns: the column, its type as the package declares it (POINT,
    /// MULTIPOLYGON...), its srid as srs id, Z and M.
    var geometry: GeometryColumnInfo?
    /// UNIQUE constraints over more than one column (one-column ones are the column's).
    var uniqueColumnSets: [[String]]
    /// CHECK constraints translated to SQLite SQL; those that cannot be are left out.
    var checks: [String]
    /// Foreign keys to tables of the same schema.
    var foreignKeys: [ForeignKey]
    /// The column named `globalid` in any letter case.
    var globalIDColumn: String?

    func column(_ name: String) -> SourceColumn? { columns.first { $0.name == name } }

    /// The table, quoted and qualified.
    var qualifiedName: String { PostgreSQLQuoting.qualified(schema, name) }

    /// The one-column integer primary key a package table needs (its `fid`), nil otherwise.
    var integerPrimaryKey: String? {
        guard primaryKey.count == 1, let key = column(primaryKey[0]) else { return nil }
        switch key.type {
        case .smallint, .integer, .bigint: return key.name
        default: return nil
        }
    }
}
