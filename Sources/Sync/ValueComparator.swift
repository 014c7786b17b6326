/// Comparing and showing column values the way sync must: numbers by value, geometries as
/// geometries (GDAL rewrites the blob of every feature it saves: envelope, byte order), and
/// geometries shown as WKT in conflict reports.
import Geometry
import SQLite

/// Compares and describes values of synced tables.
///
/// - Important: Holds a GEOS context: one owner at a time.
public final class ValueComparator {
    private let geos: GEOSContext

    /// - Parameter context: the GEOS context of the caller's thread (a sync has one).
    public init(context: GEOSContext) {
        geos = context
    }

    /// True when two values of `column` are the same.
    public func equal(_ table: SyncTable, _ column: String, _ a: SQLiteValue, _ b: SQLiteValue) -> Bool {
        if a == b { return true }
        switch (a, b) {
        case (.integer(let x), .real(let y)), (.real(let y), .integer(let x)):
            return Double(x) == y
        case (.blob(let x), .blob(let y)) where table.isGeometry(column):
            return geometriesEqual(x, y)
        default:
            return false
        }
    }

    /// Decoded geometries that are equal as values, or that GEOS finds topologically equal
    /// (same points, whatever the vertex order or ring start), are the same geometry.
    private func geometriesEqual(_ x: [UInt8], _ y: [UInt8]) -> Bool {
        guard let gx = try? GeoPackageBinary(bytes: x), let gy = try? GeoPackageBinary(bytes: y) else { return false }
        if gx.geometry == gy.geometry { return true }
        if gx.isEmpty || gy.isEmpty { return gx.isEmpty && gy.isEmpty }
        guard gx.geometry.type == gy.geometry.type else { return false }
        return (try? geos.equals(gx.geometry, gy.geometry)) ?? false
    }

    /// The value as text for people: geometries as WKT, blobs as hex, text that is not UTF-8
    /// escaped (`Do\xF1a`), NULL as nil.
    public func describe(_ table: SyncTable, _ column: String, _ value: SQLiteValue) -> String? {
        switch value {
        case .null: return nil
        case .integer(let v): return String(v)
        case .real(let v): return String(v)
        case .text(let v): return v
        case .textBytes: return value.displayText
        case .blob(let bytes):
            if table.isGeometry(column), let decoded = try? GeoPackageBinary(bytes: bytes) {
                return decoded.geometry.wkt
            }
            return value.description
        }
    }
}
