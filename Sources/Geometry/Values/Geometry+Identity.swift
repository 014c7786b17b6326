/// The one rule for "the same geometry", for every place that decides whether a geometry
/// changed (sync's upload, download and reconcile, the pending-changes listing): the same
/// type, the same structure, and the same vertex sequence with the same ordinates, Z and M
/// included. A reversed line, a ring that starts at another vertex or a new Z value is a
/// change; GEOS's topological `equals` would call each of them equal and lose the edit.
extension Geometry {
    /// True when both are the same geometry, vertex for vertex: same type and nesting, the
    /// same coordinates in the same order with the same x, y, z and m (a missing ordinate
    /// differs from any value; NaN, "no value" in WKB, equals NaN; -0 equals 0).
    public func isIdentical(to other: Geometry) -> Bool {
        switch (self, other) {
        case (.point(let a), .point(let b)):
            return Self.same(a, b)
        case (.lineString(let a), .lineString(let b)):
            return Self.same(a.coordinates, b.coordinates)
        case (.polygon(let a), .polygon(let b)):
            return Self.same(a, b)
        case (.multiPoint(let a), .multiPoint(let b)):
            return a.points.count == b.points.count && zip(a.points, b.points).allSatisfy(Self.same)
        case (.multiLineString(let a), .multiLineString(let b)):
            return a.lineStrings.count == b.lineStrings.count
                && zip(a.lineStrings, b.lineStrings).allSatisfy { Self.same($0.coordinates, $1.coordinates) }
        case (.multiPolygon(let a), .multiPolygon(let b)):
            return a.polygons.count == b.polygons.count && zip(a.polygons, b.polygons).allSatisfy(Self.same)
        case (.geometryCollection(let a), .geometryCollection(let b)):
            return a.geometries.count == b.geometries.count
                && zip(a.geometries, b.geometries).allSatisfy { $0.isIdentical(to: $1) }
        default:
            return false
        }
    }

    private static func same(_ a: Point, _ b: Point) -> Bool {
        switch (a.coordinate, b.coordinate) {
        case (nil, nil): return true
        case (let x?, let y?): return x.isIdentical(to: y)
        default: return false
        }
    }

    private static func same(_ a: Polygon, _ b: Polygon) -> Bool {
        a.rings.count == b.rings.count && zip(a.rings, b.rings).allSatisfy(same)
    }

    private static func same(_ a: [Coordinate], _ b: [Coordinate]) -> Bool {
        a.count == b.count && zip(a, b).allSatisfy { $0.isIdentical(to: $1) }
    }
}

extension Coordinate {
    /// True for the same x, y, z and m; a missing ordinate differs from any value, NaN equals
    /// NaN (WKB's "no value"), -0 equals 0.
    public func isIdentical(to other: Coordinate) -> Bool {
        Self.same(x, other.x) && Self.same(y, other.y) && Self.same(z, other.z) && Self.same(m, other.m)
    }

    private static func same(_ a: Double, _ b: Double) -> Bool {
        a == b || (a.isNaN && b.isNaN)
    }

    private static func same(_ a: Double?, _ b: Double?) -> Bool {
        switch (a, b) {
        case (nil, nil): return true
        case (let x?, let y?): return same(x, y)
        default: return false
        }
    }
}

extension GeoPackageBinary {
    /// True when both blobs hold the same geometry (``Geometry/isIdentical(to:)``) in the same
    /// spatial reference system. Only the encoding may differ: byte orders, the envelope's kind
    /// or presence, the empty flag GDAL sets or not.
    public func holdsSameGeometry(as other: GeoPackageBinary) -> Bool {
        srsID == other.srsID && geometry.isIdentical(to: other.geometry)
    }

    /// ``holdsSameGeometry(as:)`` for two stored blobs: identical bytes are the same; a blob
    /// that cannot be decoded is the same only as identical bytes.
    public static func sameGeometry(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        if a == b { return true }
        guard let x = try? GeoPackageBinary(bytes: a), let y = try? GeoPackageBinary(bytes: b) else { return false }
        return x.holdsSameGeometry(as: y)
    }
}
