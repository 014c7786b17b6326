import Geometry
import SQLite

/// Decides, feature by feature, what of a layer goes into the package: the exact test
/// against the prepared area (touching counts), then the layer's geometry path (clip,
/// reprojection, repair, the declared type: the one download takes too) and the re-encoding.
/// A feature whose geometry that path leaves as it is keeps its source's WKB.
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

    /// The package's geometry blob and envelope for a source geometry, or nil when the
    /// feature is not selected.
    /// - Throws: `GeometryError` for WKB that cannot be decoded, a geometry that cannot fit
    ///   the column, or a failure of GEOS/PROJ.
    func select(_ value: GeometryValue) throws -> (blob: [UInt8], envelope: Envelope)? {
        guard let envelope = try value.planarEnvelope(), envelope.intersects(areaEnvelope) else {
            return nil
        }
        let inside = areaIsBox
            ? areaEnvelope.contains(x: envelope.minX, y: envelope.minY) && areaEnvelope.contains(x: envelope.maxX, y: envelope.maxY)
            : try (envelope.width > 0 && envelope.height > 0 && prepared.covers(envelope))
        // Inside, in the source's CRS and the column's type: the source's WKB, undecoded.
        if inside && !transforms && declared.admitsAsStored(value) { return (try Self.storedBlob(value), envelope) }
        let g = try value.geometry()
        if !inside && !clip {
            guard try prepared.intersects(g) else { return nil }
        }
        guard let stored = try path.stored(g, clip: !inside) else { return nil }
        if !transforms && stored.isIdentical(to: g) { return (try Self.storedBlob(value), envelope) }
        guard let e = stored.envelope else { return nil }
        return (GeoPackageBinary(geometry: stored, srsID: outputSRSID).encoded(), e)
    }

    /// The package's blob for a feature taken whatever its position (a related row outside
    /// the area): promoted and reprojected as the layer is, never clipped.
    func convert(_ value: GeometryValue) throws -> (blob: [UInt8], envelope: Envelope?) {
        guard transforms || !declared.admitsAsStored(value) else { return (try Self.storedBlob(value), try value.planarEnvelope()) }
        let g = try value.geometry()
        guard let stored = try path.stored(g, clip: false) else { return (try Self.storedBlob(value), try value.planarEnvelope()) }
        return (GeoPackageBinary(geometry: stored, srsID: outputSRSID).encoded(), stored.envelope)
    }

    /// The package's blob of a geometry kept as the source has it: its WKB, srs id and
    /// envelope (none when the source stores none, as GDAL does for points).
    static func storedBlob(_ value: GeometryValue) throws -> [UInt8] {
        try GeoPackageBinary.blob(of: value, computingEnvelope: false)
    }

    /// The geometry of a geometry column's value; nil for NULL (or any value that is no
    /// geometry and no bytes, which the package keeps as it is).
    /// - Throws: `GeometryError` for bytes the source could not read as a geometry.
    static func geometry(of value: SourceValue) throws -> GeometryValue? {
        switch value {
        case .geometry(let geometry): return geometry
        case .blob(let bytes):
            // Bytes a GeoPackage column holds that are not a GeoPackage geometry: its decoder
            // says what is wrong with them.
            _ = try GeoPackageBinary.envelope(of: bytes)
            throw GeometryError(.malformedInput, "a geometry column holds \(bytes.count) bytes that are not a geometry")
        default: return nil
        }
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
