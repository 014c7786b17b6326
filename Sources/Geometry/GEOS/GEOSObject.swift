import CGEOS

/// One `GEOSGeometry*`, owned or borrowed.
///
/// An owned geometry is destroyed with `GEOSGeom_destroy_r` when this object goes away. A
/// borrowed one (a part of a collection, a ring of a polygon) belongs to its parent's C
/// object: it keeps a strong reference to the parent so the memory stays alive, and never
/// frees itself.
final class GEOSObject {
    let context: GEOSContext
    let pointer: OpaquePointer
    /// The owner of `pointer` when this object only borrows it.
    let parent: GEOSObject?

    /// Takes ownership of `pointer`, which must have come from a GEOS call returning a new
    /// geometry in `context`.
    init(context: GEOSContext, owning pointer: OpaquePointer) {
        self.context = context
        self.pointer = pointer
        self.parent = nil
    }

    /// Borrows `pointer`, which lives inside `parent`'s geometry.
    init(borrowing pointer: OpaquePointer, from parent: GEOSObject) {
        self.context = parent.context
        self.pointer = pointer
        self.parent = parent
    }

    deinit {
        if parent == nil {
            GEOSGeom_destroy_r(context.handle, pointer)
        }
    }

    /// The parts of a collection (multi or not), each borrowing from this one.
    func parts() throws -> [GEOSObject] {
        context.resetMessage()
        let count = GEOSGetNumGeometries_r(context.handle, pointer)  // returns -1 on exception
        guard count >= 0 else { throw context.failure("number of geometries") }
        return try (0..<count).map { index in
            // Returns a pointer into this geometry, or NULL on exception.
            guard let part = GEOSGetGeometryN_r(context.handle, pointer, index) else {
                throw context.failure("geometry \(index)")
            }
            return GEOSObject(borrowing: part, from: self)
        }
    }
}
