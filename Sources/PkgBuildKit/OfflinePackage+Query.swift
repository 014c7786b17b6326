/// Reading features: one by id, by attribute values, or by area.
import Geodatabase
import Geometry
import SQLite

extension OfflinePackage {
    /// The feature (or attribute row) that `id` names.
    /// - Throws: ``PackageError``: `unknownLayer`, `unknownFeature`.
    public func feature(in layer: String, id: FeatureID) throws(PackageError) -> Feature {
        try locked { connection in
            try FeatureReader(layer: try self.layer(named: layer)).feature(id, in: connection)
        }
    }

    /// The features whose attributes equal the given values (all of them; none given: every
    /// feature), in fid order.
    /// - Parameters:
    ///   - values: column name (any letter case) to value; `.null` matches NULL.
    ///   - limit: at most this many.
    /// - Throws: ``PackageError``: `unknownLayer`, `unknownField`.
    public func features(in layer: String, matching values: [String: FieldValue] = [:],
                         limit: Int? = nil) throws(PackageError) -> [Feature] {
        try locked { connection in
            let info = try self.layer(named: layer)
            var conditions: [String] = []
            var arguments: [SQLiteValue] = []
            for (name, value) in values.sorted(by: { $0.key < $1.key }) {
                guard let field = info.field(named: name) else { throw PackageError.unknownField(name, in: info) }
                conditions.append("t.\(SQL.identifier(field.name)) IS ?")
                arguments.append(value)
            }
            return try FeatureReader(layer: info).features(
                where: conditions.isEmpty ? nil : conditions.joined(separator: " AND "), arguments,
                limit: limit, in: connection)
        }
    }

    /// The features of a layer whose geometry intersects `area`, in fid order: an R-tree
    /// prefilter on the area's bounds in the layer's CRS, then GEOS's exact test.
    /// - Parameters:
    ///   - area: any geometry (`Envelope(...).polygon` for a box), in `crs`.
    ///   - crs: the area's CRS; longitude first for EPSG:4326.
    /// - Throws: ``PackageError``: `unknownLayer`, `invalidArgument` for an attribute table,
    ///   `outsideAreaOfUse`, `unknownCRS`.
    public func features(in layer: String, intersecting area: Geometry,
                         crs: String = "EPSG:4326") throws(PackageError) -> [Feature] {
        try locked { connection in
            let (info, column) = try featureLayer(named: layer)
            let inputCRS = try self.crs(crs)
            let layerCRS = try self.crs(of: column, layer: info.name)
            let local = try transformer(from: inputCRS, to: layerCRS).transform(area)
            guard let bounds = local.envelope else { return [] }
            let prepared = try geos.prepare(local)
            return try candidates(of: info, column: column, in: bounds, connection: connection).filter { feature in
                guard let geometry = feature.geometry else { return false }
                return try prepared.intersects(geometry)
            }
        }
    }

    // MARK: - Internals

    /// The features whose bounding box meets `bounds` (layer CRS): through the R-tree when
    /// the layer has one, else by reading every envelope.
    func candidates(of layer: LayerInfo, column: GeometryColumnInfo, in bounds: Envelope,
                    connection: Connection) throws -> [Feature] {
        let reader = FeatureReader(layer: layer)
        let box: [SQLiteValue] = [.real(bounds.minX), .real(bounds.maxX), .real(bounds.minY), .real(bounds.maxY)]
        if layer.hasSpatialIndex {
            let rtree = SQL.identifier(GeometryColumnInfo.rtreeName(table: layer.name, column: column.name))
            return try reader.features(where: """
                t.\(SQL.identifier(reader.key)) IN (SELECT id FROM \(rtree) WHERE maxx >= ? AND minx <= ? AND maxy >= ? AND miny <= ?)
                """, box, in: connection)
        }
        return try reader.features(where: "t.\(SQL.identifier(column.name)) IS NOT NULL", in: connection).filter {
            guard let envelope = $0.geometry?.envelope else { return false }
            return envelope.intersects(bounds)
        }
    }
}
