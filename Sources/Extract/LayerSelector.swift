import Geometry
import SQLite

/// Decides, feature by feature, what of a layer goes into the package: the exact test
/// against the prepared area (touching counts), then the layer's geometry path (clip,
/// reprojection, repair, the declared type: the one download takes too) and the re-encoding.
/// A feature whose geometry that path leaves as it is keeps its source bytes.
///
/// - Important: Not thread-safe: it holds its worker's GEOS context.
final class LayerSelector {
    let context: GEOSContext
    let prepared: PreparedGeometry
    let areaEnvelope: Envelope
    /// The area is exactly its envelope, so an envelope inside it needs no GEOS test.
    let areaIsBox: Bool
    let clip: Bool
    /// The package column's type and Z/M rules.
    let declared: DeclaredGeometryType
    let transforms: Bool
    let path: LayerGeometryPath
    let outputSRSID: Int32

    /// - Parameter declared: the package column's type (Multi for a clipped polygon or line layer).
    init(context: GEOSContext, area: Geometry, clip: Bool,
         transform: ((Geometry) throws -> Geometry)?, declared: DeclaredGeometryType, outputSRSID: Int32) throws {
        self.context = context
        self.prepared = try context.prepare(area)
        self.areaEnvelope = area.envelope ?? Envelope(minX: 0, minY: 0, maxX: -1, maxY: -1)
        self.areaIsBox = area.isRectangle
        self.clip = clip
        self.declared = declared
        self.transforms = transform != nil
        self.path = LayerGeometryPath(context: context, clipArea: clip ? prepared : nil, transform: transform, declared: declared)
        self.outputSRSID = outputSRSID
    }

    /// The package's geometry blob and envelope for a source blob, or nil when the feature
    /// is not selected.
    /// - Throws: `GeometryError` for a blob that cannot be decoded, a geometry that cannot
    ///   fit the column, or a failure of GEOS/PROJ.
    func select(_ blob: [UInt8]) throws -> (blob: [UInt8], envelope: Envelope)? {
        guard let envelope = try GeoPackageBinary.envelope(of: blob), envelope.intersects(areaEnvelope) else {
            return nil
        }
        let inside = areaIsBox
            ? areaEnvelope.contains(x: envelope.minX, y: envelope.minY) && areaEnvelope.contains(x: envelope.maxX, y: envelope.maxY)
            : try (envelope.width > 0 && envelope.height > 0 && prepared.covers(envelope))
        // Inside, in the source's CRS and the column's type: the source's bytes, undecoded.
        if inside && !transforms && declared.admitsAsStored(blob) { return (blob, envelope) }
        let g = try GeoPackageBinary(bytes: blob).geometry
        if !inside && !clip {
            guard try prepared.intersects(g) else { return nil }
        }
        guard let stored = try path.stored(g, clip: !inside) else { return nil }
        if !transforms && stored.isIdentical(to: g) { return (blob, envelope) }
        guard let e = stored.envelope else { return nil }
        return (GeoPackageBinary(geometry: stored, srsID: outputSRSID).encoded(), e)
    }

    /// The package's blob for a feature taken whatever its position (a related row outside
    /// the area): promoted and reprojected as the layer is, never clipped.
    func convert(_ blob: [UInt8]) throws -> (blob: [UInt8], envelope: Envelope?) {
        guard transforms || !declared.admitsAsStored(blob) else { return (blob, try GeoPackageBinary.envelope(of: blob)) }
        let g = try GeoPackageBinary(bytes: blob).geometry
        guard let stored = try path.stored(g, clip: false) else { return (blob, try GeoPackageBinary.envelope(of: blob)) }
        return (GeoPackageBinary(geometry: stored, srsID: outputSRSID).encoded(), stored.envelope)
    }
}

extension Geometry {
    /// True for a polygon without holes whose ring is its envelope's four corners.
    var isRectangle: Bool {
        guard case .polygon(let p) = self, p.rings.count == 1, let ring = p.exterior, ring.count == 5,
              let e = envelope else { return false }
        return ring.allSatisfy { ($0.x == e.minX || $0.x == e.maxX) && ($0.y == e.minY || $0.y == e.maxY) }
            && Set(ring.dropLast().map { "\($0.x),\($0.y)" }).count == 4
    }
}
