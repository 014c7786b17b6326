/// The values that describe a GeoPackage's content as read from its metadata tables:
/// layers (`gpkg_contents`), spatial reference systems (`gpkg_spatial_ref_sys`), geometry
/// columns (`gpkg_geometry_columns`), fields (`PRAGMA table_info`), spatial indexes
/// (`gpkg_extensions` rows for `gpkg_rtree_index`) and data columns with their constraints
/// (`gpkg_data_columns`, `gpkg_data_column_constraints`). All are plain `Sendable` values,
/// read once by ``GeoPackageSchema/read(from:)`` and free to cross threads.

/// What `gpkg_contents.data_type` says a table holds.
public enum LayerKind: Sendable, Hashable {
    case features
    case attributes
    case tiles
    /// Any other registered data type (`2d-gridded-coverage`, an extension's own...).
    case other(String)

    public init(dataType: String) {
        switch dataType {
        case "features": self = .features
        case "attributes": self = .attributes
        case "tiles": self = .tiles
        default: self = .other(dataType)
        }
    }

    /// The `gpkg_contents.data_type` text.
    public var dataType: String {
        switch self {
        case .features: "features"
        case .attributes: "attributes"
        case .tiles: "tiles"
        case .other(let text): text
        }
    }
}

/// A row of `gpkg_spatial_ref_sys`.
public struct SpatialReferenceInfo: Sendable, Hashable {
    public var srsID: Int64
    public var name: String
    public var organization: String
    public var organizationCoordsysID: Int64
    /// The WKT definition (`undefined` for the spec's -1 and 0 rows).
    public var definition: String
    public var description: String?

    public init(srsID: Int64, name: String, organization: String, organizationCoordsysID: Int64,
                definition: String, description: String? = nil) {
        self.srsID = srsID
        self.name = name
        self.organization = organization
        self.organizationCoordsysID = organizationCoordsysID
        self.definition = definition
        self.description = description
    }

    /// `EPSG:4326` style authority code, as PROJ accepts it.
    public var authorityCode: String { "\(organization.uppercased()):\(organizationCoordsysID)" }

    /// What PROJ is given for this system: the EPSG code when there is one (PROJ then knows
    /// the area of use and the datum's transformations exactly), else the stored WKT.
    public var projDefinition: String { organization.uppercased() == "EPSG" ? authorityCode : definition }
}

/// A row of `gpkg_geometry_columns`.
public struct GeometryColumnInfo: Sendable, Hashable {
    public var name: String
    /// `POINT`, `MULTIPOLYGON`, `GEOMETRY`... as the file writes it (upper-cased).
    public var geometryTypeName: String
    public var srsID: Int64
    /// 0: no z values, 1: z values mandatory, 2: optional (the spec's codes).
    public var z: Int
    /// 0, 1 or 2, as for `z`.
    public var m: Int

    public init(name: String, geometryTypeName: String, srsID: Int64, z: Int, m: Int) {
        self.name = name
        self.geometryTypeName = geometryTypeName
        self.srsID = srsID
        self.z = z
        self.m = m
    }
}

/// One column of a user table, from `PRAGMA table_info` and, when described there,
/// `gpkg_data_columns`.
public struct FieldInfo: Sendable, Hashable {
    public var name: String
    /// The declared type as written (`TEXT(80)`, `MEDIUMINT`, `MULTIPOLYGON`, or empty).
    public var declaredType: String
    public var isNotNull: Bool
    /// The default as SQL text (`'abc'`, `0`, `CURRENT_TIMESTAMP`), or nil for none.
    public var defaultSQL: String?
    /// 1-based position in the primary key, 0 when the column is not part of it.
    public var primaryKeyIndex: Int
    /// The column's `gpkg_data_columns` row, when it has one.
    public var dataColumn: DataColumnInfo?

    public init(name: String, declaredType: String, isNotNull: Bool = false, defaultSQL: String? = nil,
                primaryKeyIndex: Int = 0, dataColumn: DataColumnInfo? = nil) {
        self.name = name
        self.declaredType = declaredType
        self.isNotNull = isNotNull
        self.defaultSQL = defaultSQL
        self.primaryKeyIndex = primaryKeyIndex
        self.dataColumn = dataColumn
    }
}

/// A row of `gpkg_data_columns`: a column's title, description and constraint.
public struct DataColumnInfo: Sendable, Hashable {
    public var name: String?
    public var title: String?
    public var description: String?
    public var mimeType: String?
    /// The name of a constraint in ``GeoPackageSchema/constraints``, when one applies.
    public var constraintName: String?

    public init(name: String? = nil, title: String? = nil, description: String? = nil,
                mimeType: String? = nil, constraintName: String? = nil) {
        self.name = name
        self.title = title
        self.description = description
        self.mimeType = mimeType
        self.constraintName = constraintName
    }
}

/// A named rule from `gpkg_data_column_constraints`, which data columns refer to by name.
public struct DataColumnConstraint: Sendable, Hashable {
    /// One allowed value of an enumeration, with its description.
    public struct EnumValue: Sendable, Hashable {
        public var value: String
        public var description: String?
        public init(value: String, description: String? = nil) {
            self.value = value
            self.description = description
        }
    }

    public enum Rule: Sendable, Hashable {
        /// Allowed values (one `enum` row each).
        case enumeration([EnumValue])
        /// A numeric interval; an open end is nil.
        case range(min: Double?, minInclusive: Bool, max: Double?, maxInclusive: Bool)
        /// An SQLite GLOB pattern the text must match.
        case glob(String)
    }

    public var name: String
    public var rule: Rule
    /// The description of a range or glob row (enum values carry their own); for an enum, the
    /// description GDAL stores for the whole domain, when there is one.
    public var description: String?

    public init(name: String, rule: Rule, description: String? = nil) {
        self.name = name
        self.rule = rule
        self.description = description
    }
}

/// A feature or attribute table (or another registered table) of a GeoPackage.
public struct LayerInfo: Sendable, Hashable {
    public var name: String
    public var kind: LayerKind
    public var identifier: String?
    public var description: String?
    /// The `gpkg_contents` bounding box, in the layer's SRS, when the file records one.
    public var minX: Double?, minY: Double?, maxX: Double?, maxY: Double?
    /// `gpkg_contents.srs_id`.
    public var srsID: Int64?
    /// The geometry column of a feature table.
    public var geometryColumn: GeometryColumnInfo?
    /// Every column, in table order.
    public var fields: [FieldInfo]
    /// The integer primary key column (`fid` in GDAL's files), nil when the table has none.
    public var primaryKey: String?
    /// True when `gpkg_extensions` registers `gpkg_rtree_index` for the geometry column and
    /// the `rtree_<table>_<column>` table exists.
    public var hasSpatialIndex: Bool
    /// The column named `globalid` in any letter case, when there is one.
    public var globalIDColumn: String?

    public init(name: String, kind: LayerKind, identifier: String? = nil, description: String? = nil,
                minX: Double? = nil, minY: Double? = nil, maxX: Double? = nil, maxY: Double? = nil,
                srsID: Int64? = nil, geometryColumn: GeometryColumnInfo? = nil, fields: [FieldInfo] = [],
                primaryKey: String? = nil, hasSpatialIndex: Bool = false, globalIDColumn: String? = nil) {
        self.name = name
        self.kind = kind
        self.identifier = identifier
        self.description = description
        self.minX = minX
        self.minY = minY
        self.maxX = maxX
        self.maxY = maxY
        self.srsID = srsID
        self.geometryColumn = geometryColumn
        self.fields = fields
        self.primaryKey = primaryKey
        self.hasSpatialIndex = hasSpatialIndex
        self.globalIDColumn = globalIDColumn
    }

    /// The field of that name, compared without letter case as SQLite does.
    public func field(named name: String) -> FieldInfo? {
        fields.first { SQLName($0.name) == SQLName(name) }
    }
}

extension GeometryColumnInfo {
    /// The spatial index table the GeoPackage spec names for a geometry column of `table`
    /// (`rtree_<table>_<column>`, extension gpkg_rtree_index).
    public static func rtreeName(table: String, column: String) -> String { "rtree_\(table)_\(column)" }
}
