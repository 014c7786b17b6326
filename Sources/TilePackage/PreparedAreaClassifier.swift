import Geometry

/// Classifies tile squares against a polygonal area in EPSG:3857 with GEOS, through a
/// prepared geometry (indexed once, asked thousands of times).
///
/// - Important: not thread-safe: it uses the GEOS context it was made with.
public final class PreparedAreaClassifier: TileAreaClassifier {
    private let prepared: PreparedGeometry

    /// - Parameters:
    ///   - mercatorArea: the area, polygonal, in EPSG:3857 metres.
    ///   - context: the GEOS context of the calling worker.
    /// - Throws: `GeometryError` when GEOS cannot take the geometry.
    public init(mercatorArea: Geometry, context: GEOSContext) throws {
        prepared = try context.prepare(mercatorArea)
    }

    public func relation(ofMercatorSquare square: Envelope) throws -> TileRelation {
        // Cheapest first: most squares asked are either clearly apart or clearly crossed.
        guard try prepared.intersects(square) else { return .outside }
        if try prepared.covers(square) { return .inside }
        return try prepared.touches(square) ? .outside : .partial
    }
}
