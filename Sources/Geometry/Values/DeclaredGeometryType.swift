/// What a geometry column declares (GeoPackage's `gpkg_geometry_columns`: a type name and the
/// Z and M rules), and the one test of whether a geometry may be written into it. Every write
/// (create, download, upload, `edit`) asks it, so a layer never holds what it does not declare.
public struct DeclaredGeometryType: Sendable, Hashable {
    /// The declared type; `.geometry` takes any.
    public var type: GeometryType
    /// 0: no Z values, 1: Z mandatory, 2: optional (the GeoPackage spec's codes).
    public var z: Int
    /// 0, 1 or 2, as for `z`.
    public var m: Int

    public init(type: GeometryType, z: Int, m: Int) {
        self.type = type
        self.z = z
        self.m = m
    }

    /// Nil for a type name this module does not know (a curve type, a typo).
    public init?(name: String, z: Int, m: Int) {
        guard let type = GeometryType(name: name) else { return nil }
        self.init(type: type, z: z, m: m)
    }

    /// Why the geometry cannot go into the column as it is, or nil when it can. An empty
    /// geometry carries no ordinates to judge, so only its type counts.
    public func mismatch(_ geometry: Geometry) -> String? {
        mismatch(type: geometry.type, dimension: geometry.isEmpty ? nil : geometry.dimension)
    }

    /// As ``mismatch(_:)`` for a geometry known by its type and ordinates (nil: empty).
    public func mismatch(type actual: GeometryType, dimension: CoordinateDimension?) -> String? {
        if !admitsType(actual) {
            return "a \(actual.name) cannot go into a \(type.name) column"
        }
        guard let dimension else { return nil }
        for (name, has, rule) in [("Z", dimension.hasZ, z), ("M", dimension.hasM, m)] {
            if rule == 0 && has { return "the \(type.name) column takes no \(name) values; the geometry has them" }
            if rule == 1 && !has { return "the \(type.name) column requires \(name) values; the geometry has none" }
        }
        return nil
    }

    /// The geometry as the column takes it: itself when it fits, a single point, line or
    /// polygon wrapped in its Multi type for a Multi column; nil when it cannot fit.
    public func conformed(_ geometry: Geometry) -> Geometry? {
        if mismatch(geometry) == nil { return geometry }
        let multi = geometry.promotedToMulti
        return mismatch(multi) == nil ? multi : nil
    }

    /// A column's type takes that type and its subtypes (GeoPackage 1.3, requirement 32).
    private func admitsType(_ actual: GeometryType) -> Bool {
        switch type {
        case .geometry: return true
        case .geometryCollection:
            return actual == .geometryCollection || actual == .multiPoint || actual == .multiLineString || actual == .multiPolygon
        default: return actual == type
        }
    }
}
