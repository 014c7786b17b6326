import CGEOS

/// A geometry GEOS has indexed for testing many other geometries against it, such as an
/// area of interest tested against a million features or a pyramid of tile squares.
///
/// Made by ``GEOSContext/prepare(_:)``.
///
/// - Important: Not thread-safe: it belongs to the context that made it, and shares that
///   context's thread.
public final class PreparedGeometry {
    /// The prepared geometry points into this one, which must outlive it.
    let base: GEOSObject
    let pointer: OpaquePointer
    /// The value that was prepared.
    public let geometry: Geometry

    var context: GEOSContext { base.context }

    init(base: GEOSObject, pointer: OpaquePointer, geometry: Geometry) {
        self.base = base
        self.pointer = pointer
        self.geometry = geometry
    }

    deinit {
        GEOSPreparedGeom_destroy_r(base.context.handle, pointer)
    }

    /// True when `other` shares at least one point with the prepared geometry.
    public func intersects(_ other: Geometry) throws -> Bool {
        try test("intersects", other, GEOSPreparedIntersects_r)
    }

    /// True when every point of `other` lies in the prepared geometry and some interior
    /// point of `other` lies in its interior.
    public func contains(_ other: Geometry) throws -> Bool {
        try test("contains", other, GEOSPreparedContains_r)
    }

    /// True when `other` lies in the prepared geometry's interior, not touching its boundary.
    public func containsProperly(_ other: Geometry) throws -> Bool {
        try test("contains properly", other, GEOSPreparedContainsProperly_r)
    }

    /// True when they meet only at boundaries: their interiors do not intersect.
    public func touches(_ other: Geometry) throws -> Bool {
        try test("touches", other, GEOSPreparedTouches_r)
    }

    /// True when no point of `other` lies outside the prepared geometry.
    public func covers(_ other: Geometry) throws -> Bool {
        try test("covers", other, GEOSPreparedCovers_r)
    }

    /// ``intersects(_:)`` for a box, without building a `Geometry` value.
    public func intersects(_ box: Envelope) throws -> Bool {
        try test("intersects", box, GEOSPreparedIntersects_r)
    }

    /// ``contains(_:)`` for a box.
    public func contains(_ box: Envelope) throws -> Bool {
        try test("contains", box, GEOSPreparedContains_r)
    }

    /// ``containsProperly(_:)`` for a box.
    public func containsProperly(_ box: Envelope) throws -> Bool {
        try test("contains properly", box, GEOSPreparedContainsProperly_r)
    }

    /// ``touches(_:)`` for a box.
    public func touches(_ box: Envelope) throws -> Bool {
        try test("touches", box, GEOSPreparedTouches_r)
    }

    /// ``covers(_:)`` for a box.
    public func covers(_ box: Envelope) throws -> Bool {
        try test("covers", box, GEOSPreparedCovers_r)
    }

    // MARK: -

    private typealias PreparedPredicate = (GEOSContextHandle_t?, OpaquePointer?, OpaquePointer?) -> CChar

    private func test(_ name: String, _ other: Geometry, _ call: PreparedPredicate) throws -> Bool {
        try predicate(name, try context.object(other), call)
    }

    private func test(_ name: String, _ box: Envelope, _ call: PreparedPredicate) throws -> Bool {
        try predicate(name, try rectangle(box), call)
    }

    private func predicate(_ name: String, _ other: GEOSObject, _ call: PreparedPredicate) throws -> Bool {
        try context.predicate("prepared \(name)") { call($0, pointer, other.pointer) }  // 2 on exception
    }

    private func rectangle(_ box: Envelope) throws -> GEOSObject {
        try context.owned("creating a rectangle") {
            GEOSGeom_createRectangle_r($0, box.minX, box.minY, box.maxX, box.maxY)  // NULL on exception
        }
    }
}

extension GEOSContext {
    /// Indexes `geometry` for repeated predicate tests against other geometries.
    /// - Throws: `GeometryError(.invalidGeometry)` when GEOS cannot build the geometry.
    public func prepare(_ geometry: Geometry) throws -> PreparedGeometry {
        let base = try object(geometry)
        resetMessage()
        // Returns a new prepared geometry that points into base (which must outlive it), or
        // NULL on exception.
        guard let prepared = GEOSPrepare_r(handle, base.pointer) else { throw failure("prepare") }
        return PreparedGeometry(base: base, pointer: prepared, geometry: geometry)
    }
}
