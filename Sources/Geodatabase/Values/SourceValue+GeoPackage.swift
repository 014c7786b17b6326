/// Values between a GeoPackage's columns and the seam's neutral ones: the one place where a
/// GeoPackage geometry blob becomes well-known binary with its srs id, and back. The package
/// side of sync and the GeoPackage source driver both convert here.
import Geometry
import SQLite

extension SourceValue {
    /// The neutral value of a GeoPackage column's value. A geometry column's blob that is a
    /// GeoPackage geometry becomes a geometry value (its WKB copied, not decoded); any other
    /// blob stays a blob, so whoever reads it can say what it is.
    public init(_ value: SQLiteValue, isGeometry: Bool) {
        switch value {
        case .null: self = .null
        case .integer(let v): self = .integer(v)
        case .real(let v): self = .real(v)
        case .text(let v): self = .text(v)
        case .textBytes(let bytes): self = .textBytes(bytes)
        case .blob(let bytes):
            if isGeometry, let geometry = try? GeoPackageBinary.geometryValue(of: bytes) {
                self = .geometry(geometry)
            } else {
                self = .blob(bytes)
            }
        }
    }

    /// The value a GeoPackage column stores (a geometry as a GeoPackage geometry blob).
    /// - Throws: `GeometryError` for a geometry whose WKB cannot be scanned for its envelope.
    public func sqliteValue() throws -> SQLiteValue {
        switch self {
        case .null: .null
        case .integer(let v): .integer(v)
        case .real(let v): .real(v)
        case .text(let v): .text(v)
        case .textBytes(let bytes): .textBytes(bytes)
        case .blob(let bytes): .blob(bytes)
        case .geometry(let geometry): .blob(try GeoPackageBinary.blob(of: geometry))
        }
    }
}

extension RowValues {
    /// The neutral row of a GeoPackage row; `isGeometry` tells the geometry column.
    public func sourceRow(isGeometry: (String) -> Bool) -> SourceRow {
        SourceRow(columns: columns, values: zip(columns, values).map { SourceValue($1, isGeometry: isGeometry($0)) })
    }

    /// The GeoPackage row of a neutral row.
    /// - Throws: as ``SourceValue/sqliteValue()``.
    public init(_ row: SourceRow) throws {
        self.init(columns: row.columns, values: try row.values.map { try $0.sqliteValue() })
    }
}
