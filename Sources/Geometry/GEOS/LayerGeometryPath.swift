/// The one way a geometry from one database becomes the geometry a layer of another stores:
/// `create` (a source feature into the package), download (the same, row by row) and upload of
/// a reprojected layer (the package's geometry back into the source's CRS) all go through it,
/// so a row extracted and the same row downloaded later are identical, and both fit the
/// layer's declared type.
///
/// Order: clip to the area (clipped layers), transform (reprojected layers), repair a polygon
/// that clipping or the transformation left invalid, fit the declared type (a single part
/// wrapped as Multi). Only a geometry this path computed is repaired: one it passes through
/// unchanged is the source's and stays exactly so.
///
/// - Important: Holds its worker's GEOS context (and the transform's PROJ context): one owner
///   at a time.
public final class LayerGeometryPath {
    private let context: GEOSContext
    private let clipArea: PreparedGeometry?
    private let transform: ((Geometry) throws -> Geometry)?
    private let declared: DeclaredGeometryType

    /// - Parameters:
    ///   - clipArea: the area to cut geometries to, in their CRS before the transform; nil
    ///     for a layer that is not clipped.
    ///   - transform: into the target CRS; nil when the CRS stays.
    ///   - declared: the target column's type and Z/M rules.
    public init(context: GEOSContext, clipArea: PreparedGeometry?, transform: ((Geometry) throws -> Geometry)?,
                declared: DeclaredGeometryType) {
        self.context = context
        self.clipArea = clipArea
        self.transform = transform
        self.declared = declared
    }

    /// True when some geometry may come out other than it went in (before the declared type
    /// is checked): callers may keep a source blob as it is when this is false.
    public var computes: Bool { clipArea != nil || transform != nil }

    /// The geometry as the layer stores it.
    /// - Parameter clip: false for a row taken whatever its position (a related row outside
    ///   the area), which is never cut.
    /// - Returns: nil when clipping leaves nothing of the geometry's dimension.
    /// - Throws: `GeometryError` (`invalidGeometry`) when the result cannot fit the declared
    ///   type or dimensions; errors of GEOS and of the transform.
    public func stored(_ geometry: Geometry, clip: Bool = true) throws -> Geometry? {
        var g = geometry
        var computed = false
        if clip, let clipArea, !g.isEmpty {
            guard let cut = try clipArea.clip(g) else { return nil }
            computed = !cut.isIdentical(to: g)
            g = cut
        }
        if let transform, !g.isEmpty {
            g = try transform(g)
            computed = true
        }
        if computed { g = try repaired(g) }
        guard let fitted = declared.conformed(g) else {
            throw GeometryError(.invalidGeometry, declared.mismatch(g) ?? "the geometry does not fit the column")
        }
        return fitted
    }

    /// A polygon the computation bent invalid, made valid, when the valid one still fits the
    /// declared type and keeps the dimensions; otherwise the computed one as it is (its
    /// vertices are all there: better an invalid polygon than a lost part).
    private func repaired(_ g: Geometry) throws -> Geometry {
        guard g.type.topologicalDimension == 2, try !context.validity(g).isValid else { return g }
        let parts = try context.makeValid(g).polygonParts
        guard !parts.isEmpty else { return g }
        let valid: Geometry = parts.count == 1 && g.type == .polygon ? .polygon(parts[0]) : .multiPolygon(MultiPolygon(parts))
        guard valid.dimension == g.dimension, let fitted = declared.conformed(valid) else { return g }
        return fitted
    }
}
