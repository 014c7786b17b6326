import CPROJ

/// One `PJ*` (a CRS or a coordinate operation), destroyed with `proj_destroy`. It keeps its
/// context alive, since PROJ objects must not outlive the context they were made in.
final class PROJObject {
    let context: PROJContext
    let pointer: OpaquePointer

    /// Takes ownership of `pointer`, which must have come from a PROJ call returning a new
    /// object in `context`.
    init(context: PROJContext, owning pointer: OpaquePointer) {
        self.context = context
        self.pointer = pointer
    }

    deinit {
        proj_destroy(pointer)
    }
}
