/// A feature source's table as `create` rebuilds it in the package: each column with its
/// base type and the GeoPackage type it maps to, and the rules the package keeps (NOT NULL,
/// defaults, UNIQUE, CHECK, foreign keys). Expressions (a default, a CHECK) are given in
/// SQLite's SQL, the package's dialect: a driver of another database translates its own, or
/// leaves out what it cannot say.
import Geodatabase

/// One column of a feature source's table.
public struct FeatureColumn: Sendable, Hashable {
    public var name: String
    /// The type as a GeoPackage declares it (`TEXT(80)`, `INTEGER`, `DATETIME`, `POINT`...).
    public var declaredType: String
    public var baseType: BaseType
    public var isNotNull: Bool
    /// The default as SQLite SQL (`'abc'`, `0`, `CURRENT_TIMESTAMP`, `(strftime(...))`).
    public var defaultSQL: String?
    /// The column holds no value twice (a one-column UNIQUE constraint).
    public var isUnique: Bool
    /// The collating sequence named for the column (`NOCASE`), when one is.
    public var collation: String?

    public init(name: String, declaredType: String, baseType: BaseType, isNotNull: Bool = false,
                defaultSQL: String? = nil, isUnique: Bool = false, collation: String? = nil) {
        (self.name, self.declaredType, self.baseType, self.isNotNull, self.defaultSQL, self.isUnique, self.collation)
            = (name, declaredType, baseType, isNotNull, defaultSQL, isUnique, collation)
    }
}

/// A foreign key of a feature source's table.
public struct ForeignKey: Sendable, Hashable {
    public var columns: [String]
    public var table: String
    /// The referenced columns; empty for the referenced table's primary key.
    public var referencedColumns: [String]
    /// `CASCADE`, `SET NULL`... as SQLite spells the action; nil for none.
    public var onUpdate: String?
    public var onDelete: String?

    public init(columns: [String], table: String, referencedColumns: [String], onUpdate: String? = nil,
                onDelete: String? = nil) {
        (self.columns, self.table, self.referencedColumns, self.onUpdate, self.onDelete)
            = (columns, table, referencedColumns, onUpdate, onDelete)
    }
}

/// The schema of one layer.
public struct FeatureSchema: Sendable, Hashable {
    /// Every column, in table order (the key and the geometry included).
    public var columns: [FeatureColumn]
    /// The integer primary key column (`fid`), nil when the table has none.
    public var primaryKey: String?
    /// The key is numbered without reuse (SQLite's AUTOINCREMENT).
    public var primaryKeyAutoincrements: Bool
    /// The geometry column of a feature table: its type as declared, its srs id, Z and M.
    public var geometry: GeometryColumnInfo?
    /// UNIQUE constraints over more than one column.
    public var uniqueColumnSets: [[String]]
    /// CHECK constraints (the table's and its columns'), each a boolean SQLite expression.
    public var checks: [String]
    public var foreignKeys: [ForeignKey]

    public init(columns: [FeatureColumn], primaryKey: String?, primaryKeyAutoincrements: Bool = false,
                geometry: GeometryColumnInfo? = nil, uniqueColumnSets: [[String]] = [], checks: [String] = [],
                foreignKeys: [ForeignKey] = []) {
        self.columns = columns
        self.primaryKey = primaryKey
        self.primaryKeyAutoincrements = primaryKeyAutoincrements
        self.geometry = geometry
        self.uniqueColumnSets = uniqueColumnSets
        self.checks = checks
        self.foreignKeys = foreignKeys
    }

    public var columnNames: [String] { columns.map(\.name) }
}
