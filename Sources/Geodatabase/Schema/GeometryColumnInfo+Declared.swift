import Geometry

extension GeometryColumnInfo {
    /// What the column declares, for ``DeclaredGeometryType/mismatch(_:)``; a type name the
    /// Geometry module does not know (a curve type) takes any geometry, as GEOMETRY does.
    public var declaredType: DeclaredGeometryType {
        DeclaredGeometryType(name: geometryTypeName, z: z, m: m) ?? DeclaredGeometryType(type: .geometry, z: z, m: m)
    }
}
