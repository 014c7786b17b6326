/// The values that cross the seam between sync and a source driver: one column's value of one
/// row, whatever database it came from. No SQLite value and no GeoPackage blob crosses it: a
/// geometry is well-known binary with its CRS, so a PostGIS driver hands over its (E)WKB as
/// it is and a GeoPackage driver strips its header.

/// One column's value. `textBytes` is text whose bytes are not valid UTF-8 (a Latin-1
/// export), kept byte for byte: a backend that cannot store them refuses the row, it never
/// rewrites them.
public enum SourceValue: Sendable, Hashable {
    case null, integer(Int64), real(Double), text(String), textBytes([UInt8]), blob([UInt8])
    case geometry(GeometryValue)

    public var isNull: Bool { self == .null }

    /// The text of a `.text` value, or of `.textBytes` with invalid bytes replaced (for
    /// messages only).
    public var stringValue: String? {
        switch self {
        case .text(let text): text
        case .textBytes(let bytes): String(decoding: bytes, as: UTF8.self)
        default: nil
        }
    }
}

/// A geometry as it crosses the seam: ISO (or extended) well-known binary, the id of its
/// spatial reference system in the source's numbering, and the envelope when the source
/// stores one (so a driver that needs it does not decode the WKB to find it).
public struct GeometryValue: Sendable, Hashable {
    public var wkb: [UInt8]
    public var srsID: Int64
    public var envelope: GeoPackageEnvelope?
    public var isEmpty: Bool

    public init(wkb: [UInt8], srsID: Int64, envelope: GeoPackageEnvelope? = nil, isEmpty: Bool = false) {
        (self.wkb, self.srsID, self.envelope, self.isEmpty) = (wkb, srsID, envelope, isEmpty)
    }

    /// A geometry value of a decoded geometry (ISO WKB, little-endian).
    public init(_ geometry: Geometry, srsID: Int64) {
        self.init(wkb: geometry.wkb(), srsID: srsID, isEmpty: geometry.isEmpty)
    }

    /// The geometry the WKB holds.
    /// - Throws: `GeometryError` for WKB that does not decode.
    public func geometry() throws -> Geometry {
        try Geometry(wkb: wkb)
    }
}

/// A row's values, column by column in one order: a row crossing the seam
/// (``SourceRow``), or a row of a GeoPackage as sync reads it (Geodatabase's `RowValues`).
public struct ColumnValues<Value: Sendable & Hashable>: Sendable, Hashable {
    public var columns: [String]
    public var values: [Value]

    public init(columns: [String], values: [Value]) {
        precondition(columns.count == values.count, "one value per column")
        (self.columns, self.values) = (columns, values)
    }
}

/// A row's values crossing the seam.
public typealias SourceRow = ColumnValues<SourceValue>

extension ColumnValues where Value == SourceValue {
    /// The value of a column as spelled in `columns` (a driver's columns are spelled as its
    /// schema spells them), nil when the row has no such column.
    public subscript(column: String) -> SourceValue? {
        columns.firstIndex(of: column).map { values[$0] }
    }
}
