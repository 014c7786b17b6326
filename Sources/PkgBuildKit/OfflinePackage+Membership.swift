/// Whether an edit takes a feature out of the package: after a sync a row belongs when its
/// geometry meets the package's area and the row meets its layer's filter (or it is related
/// to a member), so an edit that moves a feature away, removes its geometry or edits it out of
/// the filter makes the next sync take it out of the package (the source keeps it).
import Geodatabase
import Geometry
import PackageFormat
import SQLite

extension OfflinePackage {
    /// Why the next sync will take the feature out of the package, as it stands now; nil when
    /// it stays. Judged by the area and filter this package records (a sync judges by the
    /// source's registration of them: the same, unless someone rewrote the package's). Rows of
    /// layers taken whole or for their relationships are not judged here.
    /// - Throws: ``PackageError`` (`unknownLayer`, `unknownCRS`, `storage`).
    public func departureReason(of feature: Feature) throws(PackageError) -> String? {
        try locked { connection in
            let info = try layer(named: feature.layer)
            guard let cut = try PackageMetadata.layerCuts(in: connection)
                .first(where: { SQLName($0.key) == SQLName(info.name) })?.value else { return nil }
            if let filter = cut.filter, let key = info.primaryKey {
                let parsed = try WhereFilter(layer: info.name, expression: filter).storedExpression(on: connection, table: info.name)
                let meets = try connection.scalar("""
                    SELECT 1 FROM \(SQL.identifier(info.name)) WHERE \(SQL.identifier(key)) = ? \
                    AND \(parsed?.sqlite ?? "(\(filter))")
                    """, [.integer(feature.fid)]) != nil
                if !meets { return "it no longer meets the layer's filter (\(filter))" }
            }
            guard cut.spatial, let column = info.geometryColumn else { return nil }
            guard let geometry = feature.geometry, !geometry.isEmpty else {
                return "it has no geometry, and the layer holds the features that meet the package's area"
            }
            let values = try PackageMetadata.values(in: connection)
            guard let wkt = values["area_wkt"], !wkt.isEmpty else { return nil }
            let area = try transformer(from: crs(values["area_crs"] ?? "EPSG:4326"), to: crs(of: column, layer: info.name))
                .transform(try Geometry(wkt: wkt))
            return try geos.prepare(area).intersects(geometry) ? nil : "its geometry is outside the package's area"
        }
    }
}
