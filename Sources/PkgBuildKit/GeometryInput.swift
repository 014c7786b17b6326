/// Turning a geometry a caller gives (in any CRS) into the one a layer stores: refused
/// outside the area of use of its CRS and of the layer's, reprojected, promoted to the
/// layer's multi type where that is all that differs, checked for type, dimensions and
/// validity, and encoded as GeoPackage binary.
import Geodatabase
import Geometry

extension OfflinePackage {
    /// The geometry as stored in the layer: the value (in the layer's CRS) and its blob.
    /// - Throws: ``PackageError``: `invalidGeometry`, `wrongGeometryType`, `outsideAreaOfUse`,
    ///   `unknownCRS`.
    func storable(_ geometry: Geometry, crs definition: String, layer: LayerInfo,
                  column: GeometryColumnInfo) throws -> (geometry: Geometry, blob: [UInt8]) {
        guard !geometry.isEmpty else {
            throw PackageError(.invalidGeometry, "the geometry for layer '\(layer.name)' is empty")
        }
        var coordinates: [Coordinate] = []
        geometry.forEachCoordinate { coordinates.append($0) }
        if let bad = coordinates.first(where: { !$0.x.isFinite || !$0.y.isFinite }) {
            throw PackageError(.invalidGeometry, "the geometry for layer '\(layer.name)' has a coordinate that is not a number: (\(bad.x), \(bad.y))")
        }
        let inputCRS = try crs(definition)
        let layerCRS = try crs(of: column, layer: layer.name)
        let lonLats = try lonLat(of: coordinates, in: inputCRS)
        try requireInsideAreaOfUse(lonLats, original: coordinates, of: inputCRS, role: "the input CRS")
        try requireInsideAreaOfUse(lonLats, original: coordinates, of: layerCRS, role: "layer '\(layer.name)''s CRS")

        var local = try transformer(from: inputCRS, to: layerCRS).transform(geometry)
        local = try fitted(local, layer: layer, column: column)
        let (isValid, reason) = try geos.validity(local)
        guard isValid else {
            throw PackageError(.invalidGeometry, "the geometry for layer '\(layer.name)' is invalid: \(reason ?? "GEOS gives no reason")")
        }
        let envelope: GeoPackageEnvelopeKind = local.type == .point ? .none : .xy
        let blob = GeoPackageBinary(geometry: local, srsID: Int32(clamping: column.srsID), envelopeKind: envelope).encoded()
        return (local, blob)
    }

    /// The geometry in the type and dimensions the column declares, by the rule every write
    /// follows (``DeclaredGeometryType``): itself when it fits, a single polygon (line, point)
    /// wrapped as a multi one for a multi column; refused otherwise.
    private func fitted(_ geometry: Geometry, layer: LayerInfo, column: GeometryColumnInfo) throws -> Geometry {
        let declared = column.declaredType
        if let fitted = declared.conformed(geometry) { return fitted }
        if declared.conformed(geometry.withoutZM) == nil {
            throw PackageError(.wrongGeometryType,
                               "layer '\(layer.name)' holds \(column.geometryTypeName.uppercased()) geometries; a \(geometry.type.name) cannot go in it")
        }
        let dimension = geometry.dimension
        for (name, has, rule) in [("Z", dimension.hasZ, column.z), ("M", dimension.hasM, column.m)] {
            if rule == 0 && has {
                throw PackageError(.invalidGeometry, "layer '\(layer.name)' takes no \(name) values; the geometry has them")
            }
            if rule == 1 && !has {
                throw PackageError(.invalidGeometry, "layer '\(layer.name)' requires \(name) values; the geometry has none")
            }
        }
        throw PackageError(.invalidGeometry, "layer '\(layer.name)': \(declared.mismatch(geometry) ?? "the geometry does not fit")")
    }
}

private extension Geometry {
    /// The same geometry with Z and M dropped: to tell a wrong type from wrong dimensions.
    var withoutZM: Geometry {
        mapCoordinates { Coordinate(x: $0.x, y: $0.y) }
    }
}
