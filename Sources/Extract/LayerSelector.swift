import Geometry
import SQLite

/// Decides, feature by feature, what of a layer goes into the package: the exact test
/// against the prepared area (touching counts), the optional clip (dimension kept, touching
/// dropped), the optional reprojection (valid geometries out) and the re-encoding. A
/// feature whose geometry needs none of that keeps its source bytes.
///
/// - Important: Not thread-safe: it holds its worker's GEOS context.
final class LayerSelector {
    let context: GEOSContext
    let prepared: PreparedGeometry
    let areaEnvelope: Envelope
    /// The area is exactly its envelope, so an envelope inside it needs no GEOS test.
    let areaIsBox: Bool
    let clip: Bool
    /// Promote single geometries to their Multi type (the column was promoted for clipping).
    let promoteToMulti: Bool
    let transform: ((Geometry) throws -> Geometry)?
    let outputSRSID: Int32

    init(context: GEOSContext, area: Geometry, clip: Bool, promoteToMulti: Bool,
         transform: ((Geometry) throws -> Geometry)?, outputSRSID: Int32) throws {
        self.context = context
        self.prepared = try context.prepare(area)
        self.areaEnvelope = area.envelope ?? Envelope(minX: 0, minY: 0, maxX: -1, maxY: -1)
        self.areaIsBox = area.isRectangle
        self.clip = clip
        self.promoteToMulti = promoteToMulti
        self.transform = transform
        self.outputSRSID = outputSRSID
    }

    /// The package's geometry blob and envelope for a source blob, or nil when the feature
    /// is not selected.
    /// - Throws: `GeometryError` for a blob that cannot be decoded, or a failure of GEOS/PROJ.
    func select(_ blob: [UInt8]) throws -> (blob: [UInt8], envelope: Envelope)? {
        guard let envelope = try GeoPackageBinary.envelope(of: blob), envelope.intersects(areaEnvelope) else {
            return nil
        }
        let inside = areaIsBox
            ? areaEnvelope.contains(x: envelope.minX, y: envelope.minY) && areaEnvelope.contains(x: envelope.maxX, y: envelope.maxY)
            : try (envelope.width > 0 && envelope.height > 0 && prepared.covers(envelope))
        var geometry: Geometry?
        if !inside {
            let g = try GeoPackageBinary(bytes: blob).geometry
            if clip {
                guard let clipped = try prepared.clip(g) else { return nil }
                geometry = clipped
            } else {
                guard try prepared.intersects(g) else { return nil }
                if transform != nil || needsPromotion(g) { geometry = g }
            }
        } else if transform != nil || promoteToMulti {
            geometry = try GeoPackageBinary(bytes: blob).geometry
        }
        guard var g = geometry else { return (blob, envelope) }
        if promoteToMulti { g = g.promotedToMulti }
        if let transform {
            g = try transform(g)
            if g.type.topologicalDimension == 2, try !context.validity(g).isValid {
                g = try context.makeValid(g)
                if promoteToMulti || g.type != .polygon { g = g.polygonal }
            }
        }
        let out = GeoPackageBinary(geometry: g, srsID: outputSRSID)
        guard let e = g.envelope else { return nil }
        return (out.encoded(), e)
    }

    /// The package's blob for a feature taken whatever its position (a related row outside
    /// the area): promoted and reprojected as the layer is, never clipped.
    func convert(_ blob: [UInt8]) throws -> (blob: [UInt8], envelope: Envelope?) {
        guard transform != nil || promoteToMulti else { return (blob, try GeoPackageBinary.envelope(of: blob)) }
        var g = try GeoPackageBinary(bytes: blob).geometry
        if promoteToMulti { g = g.promotedToMulti }
        if let transform {
            g = try transform(g)
            if g.type.topologicalDimension == 2, try !context.validity(g).isValid {
                g = try context.makeValid(g).polygonal
            }
        }
        return (GeoPackageBinary(geometry: g, srsID: outputSRSID).encoded(), g.envelope)
    }

    private func needsPromotion(_ g: Geometry) -> Bool {
        promoteToMulti && (g.type == .polygon || g.type == .lineString || g.type == .point)
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

    /// The polygons of a geometry (what makeValid returns may mix in lines), as a MultiPolygon.
    var polygonal: Geometry {
        var polygons: [Polygon] = []
        func collect(_ g: Geometry) {
            switch g {
            case .polygon(let p): polygons.append(p)
            case .multiPolygon(let m): polygons += m.polygons
            case .geometryCollection(let c): c.geometries.forEach(collect)
            default: break
            }
        }
        collect(self)
        return .multiPolygon(MultiPolygon(polygons))
    }
}
