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
        // Interiors that meet still meet with the square shrunk by a hair; a square the area
        // only touches (along an edge, at a corner) no longer meets it. Asked this way the
        // prepared geometry's index answers: GEOS's `touches` computes a whole relate, with
        // every vertex of the area, for each boundary tile. The hair is the box path's
        // tolerance (1e-7 of a tile).
        let hair = (square.maxX - square.minX) * 1e-7
        let inner = Envelope(minX: square.minX + hair, minY: square.minY + hair, maxX: square.maxX - hair, maxY: square.maxY - hair)
        return try prepared.intersects(inner) ? .partial : .outside
    }
}
