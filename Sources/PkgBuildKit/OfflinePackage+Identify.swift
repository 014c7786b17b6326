/// Identify: the features at a location, nearest first, with their distance in metres.
///
/// Distances are measured in an azimuthal equidistant projection centred on the point
/// (PROJ's ellipsoidal `aeqd`), where the distance from the centre to any position is the
/// geodesic distance on WGS 84: right at any latitude, where degrees or Web Mercator metres
/// are not (a Web Mercator metre is half a metre at 60°N). The tolerance becomes a square
/// in that projection, transformed (densified) into each layer's CRS for the R-tree
/// prefilter; GEOS then measures exactly.
import Geodatabase
import Geometry
import SQLite

/// A feature found by ``OfflinePackage/identify(at:crs:tolerance:layers:)``.
public struct IdentifiedFeature: Sendable, Hashable {
    public var feature: Feature
    /// Metres from the point to the feature's geometry (0 inside a polygon or on a line).
    public var distance: Double

    public init(feature: Feature, distance: Double) {
        self.feature = feature
        self.distance = distance
    }
}

extension OfflinePackage {
    /// The features within `tolerance` of a point, nearest first (ties: layer order, then fid).
    /// - Parameters:
    ///   - point: the location, in `crs`.
    ///   - crs: the point's CRS; longitude first for EPSG:4326.
    ///   - tolerance: how far a feature may be; 10 m by default.
    ///   - layers: the layers to look in (any letter case); nil for every feature layer.
    /// - Throws: ``PackageError``: `unknownLayer`, `unknownCRS`, `outsideAreaOfUse` for a
    ///   point outside the area of use of `crs`.
    public func identify(at point: Coordinate, crs: String = "EPSG:4326", tolerance: Tolerance = .meters(10),
                         layers: [String]? = nil) throws(PackageError) -> [IdentifiedFeature] {
        try locked { connection in
            let searched: [(LayerInfo, GeometryColumnInfo)]
            if let layers {
                searched = try layers.map { try featureLayer(named: $0) }
            } else {
                searched = self.layers.compactMap { layer in layer.geometryColumn.map { (layer, $0) } }
            }
            let inputCRS = try self.crs(crs)
            let lonLat = try lonLat(of: [point], in: inputCRS)[0]
            try requireInsideAreaOfUse([lonLat], original: [point], of: inputCRS, role: "the input CRS")
            let meters = tolerance.meters(atLatitude: lonLat.y)
            guard meters.isFinite, meters >= 0 else {
                throw PackageError(.invalidArgument, "the tolerance must be 0 or more metres, not \(tolerance)")
            }
            let local = try CoordinateReferenceSystem(
                "+proj=aeqd +lat_0=\(lonLat.y) +lon_0=\(lonLat.x) +x_0=0 +y_0=0 +datum=WGS84 +units=m +no_defs",
                context: proj)

            var found: [(order: Int, hit: IdentifiedFeature)] = []
            for (order, (layer, column)) in searched.enumerated() {
                let layerCRS = try self.crs(of: column, layer: layer.name)
                let toLocal = try Transformer(from: layerCRS, to: local, context: proj)
                // The point takes the same path as the features (input -> layer -> local), so a
                // datum shift between the layer and WGS 84 moves both alike.
                let centre: Coordinate
                do {
                    centre = try toLocal.transform(try transformer(from: inputCRS, to: layerCRS).transform(point))
                } catch let error as GeometryError where error.kind == .transformFailed {
                    continue  // The point has no place in this layer's CRS: nothing of it is there.
                }
                // A hair wider than the tolerance, so a feature exactly at it survives rounding.
                let reach = meters * (1 + 1e-9) + 1e-6
                let square = Envelope(minX: centre.x - reach, minY: centre.y - reach,
                                      maxX: centre.x + reach, maxY: centre.y + reach)
                let bounds = try toLocal.transform(square, direction: .inverse)
                var candidates: [Feature] = []
                for box in splitAtAntimeridian(bounds) {
                    candidates += try self.candidates(of: layer, column: column, in: box, connection: connection)
                }
                var seen = Set<Int64>()
                for feature in candidates where seen.insert(feature.fid).inserted {
                    guard let geometry = feature.geometry, !geometry.isEmpty else { continue }
                    let distance = try geos.distance(try toLocal.transform(geometry), .point(Point(centre)))
                    if distance <= meters * (1 + 1e-9) {
                        found.append((order, IdentifiedFeature(feature: feature, distance: distance)))
                    }
                }
            }
            return found.sorted {
                ($0.hit.distance, $0.order, $0.hit.feature.fid) < ($1.hit.distance, $1.order, $1.hit.feature.fid)
            }.map(\.hit)
        }
    }

    /// A box that crosses the antimeridian (`minX > maxX`, as PROJ returns it into a
    /// geographic CRS) as the two boxes either side of it.
    private func splitAtAntimeridian(_ box: Envelope) -> [Envelope] {
        guard box.minX > box.maxX else { return [box] }
        return [Envelope(minX: box.minX, minY: box.minY, maxX: 180, maxY: box.maxY),
                Envelope(minX: -180, minY: box.minY, maxX: box.maxX, maxY: box.maxY)]
    }
}
