/// Comparing and showing column values the way sync must: numbers by value, geometries as
/// geometries by the Geometry module's one rule (GDAL rewrites the blob of every feature it
/// saves: envelope, byte order; a new Z, a reversed line or another ring start is still an
/// edit), and geometries shown as WKT in conflict reports.
import Geometry
import SQLite

/// Compares and describes values of synced tables.
public final class ValueComparator {
    /// - Parameter context: kept for callers that pass their sync's GEOS context; geometry
    ///   equality is exact and needs no GEOS.
    public init(context: GEOSContext) {}

    public init() {}

    /// True when two values of `column` are the same.
    public func equal(_ table: SyncTable, _ column: String, _ a: SQLiteValue, _ b: SQLiteValue) -> Bool {
        if a == b { return true }
        switch (a, b) {
        case (.integer(let x), .real(let y)), (.real(let y), .integer(let x)):
            return Double(x) == y
        case (.blob(let x), .blob(let y)) where table.isGeometry(column):
            // Same type, dimensions, vertices and srs id; only the encoding may differ.
            return GeoPackageBinary.sameGeometry(x, y)
        default:
            return false
        }
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
