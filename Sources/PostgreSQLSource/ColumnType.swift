/// How each PostgreSQL type crosses the seam: the GeoPackage type a package declares for it,
/// its base type, the expression that reads it as the seam carries it, and how a seam value is
/// written back. The README's "PostgreSQL types" says what "exactly" means for each.
import Geodatabase
import Geometry
import PostgreSQL
import SourceDrivers

/// The kinds of PostgreSQL column the driver tells apart (domains as their base type).
enum ColumnType: Sendable, Hashable {
    case smallint, integer, bigint
    /// float4: read as the exact float4 value, so a double written back rounds to the same.
    case real
    case double
    /// Its exact decimal text (a double would round).
    case numeric
    case boolean
    /// text, varchar(n), char(n): `length` is n.
    case text(length: Int?)
    case date
    /// Microseconds in UTC, `2026-01-02T03:04:05.123456Z`.
    case timestamptz
    /// `2026-01-02T03:04:05.123456`.
    case timestamp
    /// Lower-case canonical text.
    case uuid
    /// A uuid column that is the table's global id: `{UPPER-CASE}` with braces, as packages
    /// write global ids (Geodatabase's GlobalID).
    case globalID
    case json, jsonb
    /// Any array: PostgreSQL's array literal.
    case array
    case bytea
    /// The table's geometry column (the one geometry_columns describes).
    case geometry(GeometryColumnInfo)
    /// Anything else: its text form, written back through the type's input function.
    case other

    /// The kind of a column whose (domain-resolved) base type is `typeName` (pg_type.typname)
    /// of category `category` (pg_type.typcategory, `A` for arrays).
    init(typeName: String, category: String, length: Int?, isGlobalID: Bool, geometry: GeometryColumnInfo?) {
        if category == "A" { self = .array; return }
        switch typeName {
        case "int2": self = .smallint
        case "int4": self = .integer
        case "int8": self = .bigint
        case "float4": self = .real
        case "float8": self = .double
        case "numeric": self = .numeric
        case "bool": self = .boolean
        case "text", "varchar", "bpchar", "name", "citext": self = .text(length: length)
        case "date": self = .date
        case "timestamptz": self = .timestamptz
        case "timestamp": self = .timestamp
        case "uuid": self = isGlobalID ? .globalID : .uuid
        case "json": self = .json
        case "jsonb": self = .jsonb
        case "bytea": self = .bytea
        case "geometry": self = geometry.map(ColumnType.geometry) ?? .other
        default: self = .other
        }
    }

    /// The type as the package declares it. int4 is MEDIUMINT as GDAL writes it (and reads
    /// back as a 32-bit integer); float8 is REAL, GDAL's spelling of the GeoPackage's double.
    var declaredType: String {
        switch self {
        case .smallint: "SMALLINT"
        case .integer: "MEDIUMINT"
        case .bigint: "INTEGER"
        case .real: "FLOAT"
        case .double: "REAL"
        case .boolean: "BOOLEAN"
        case .text(let length): length.map { "TEXT(\($0))" } ?? "TEXT"
        case .date: "DATE"
        case .bytea: "BLOB"
        case .geometry(let info): info.geometryTypeName
        case .numeric, .timestamptz, .timestamp, .uuid, .globalID, .json, .jsonb, .array, .other: "TEXT"
        }
    }

    var baseType: BaseType {
        switch self {
        case .smallint, .integer, .bigint: .integer
        case .real, .double: .real
        case .boolean: .boolean
        case .date: .date
        case .bytea: .blob
        case .geometry: .geometry
        case .text, .numeric, .timestamptz, .timestamp, .uuid, .globalID, .json, .jsonb, .array, .other: .text
        }
    }

    /// The SELECT expression of a column (`quoted`) yielding the seam's form, in text format.
    func selectExpression(_ quoted: String) -> String {
        switch self {
        case .smallint, .integer, .bigint, .real, .double, .boolean, .text, .date, .bytea: quoted
        // Infinity has no digits to format: its text form ('infinity') is kept instead.
        case .timestamptz:
            "CASE WHEN isfinite(\(quoted)) THEN to_char(\(quoted) AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.US\"Z\"') ELSE \(quoted)::text END"
        case .timestamp:
            "CASE WHEN isfinite(\(quoted)) THEN to_char(\(quoted), 'YYYY-MM-DD\"T\"HH24:MI:SS.US') ELSE \(quoted)::text END"
        case .globalID: "'{' || upper(\(quoted)::text) || '}'"
        case .geometry: "ST_AsBinary(\(quoted))"
        case .numeric, .uuid, .json, .jsonb, .array, .other: "\(quoted)::text"
        }
    }
}
