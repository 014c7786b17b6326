import CGEOS

/// A GEOS reentrant context: the handle every GEOS call runs in, and the place GEOS reports
/// its error messages to.
///
/// Create one per worker and reuse it for all of that worker's operations; creating a
/// context per call costs more than most operations themselves.
///
/// - Important: Not thread-safe. A context, and every ``PreparedGeometry`` made from it,
///   must be used by one thread (or one task) at a time. Parallel work gets its own context.
public final class GEOSContext {
    let handle: GEOSContextHandle_t

    /// The last error message GEOS reported through the handler; cleared before each call
    /// that reads it, so a message is never attributed to a later call.
    var lastMessage: String?

    /// - Throws: `GeometryError(.library)` when GEOS cannot allocate a context.
    public init() throws {
        guard let handle = GEOS_init_r() else {  // returns NULL when out of memory
            throw GeometryError(.library, "GEOS could not create a context")
        }
        self.handle = handle
        // The handler gets this object back through userdata. The pointer is unretained:
        // the handle, and with it the handler, is finished in deinit before self goes away.
        let me = Unmanaged.passUnretained(self).toOpaque()
        GEOSContext_setErrorMessageHandler_r(handle, { message, userdata in
            guard let userdata else { return }
            let context = Unmanaged<GEOSContext>.fromOpaque(userdata).takeUnretainedValue()
            context.lastMessage = message.map { String(cString: $0) } ?? "unknown GEOS error"
        }, me)
        // Notices (such as "Self-intersection at ...") come from validity checks, whose
        // reasons are read through GEOSisValidDetail_r instead; they are not errors.
        GEOSContext_setNoticeMessageHandler_r(handle, { _, _ in }, nil)
    }

    deinit {
        GEOS_finish_r(handle)
    }

    /// The GEOS library version, e.g. `3.11.1-CAPI-1.17.1`.
    public static var libraryVersion: String { String(cString: GEOSversion()) }

    /// Clears the last message, so that a failure of the next call reports its own.
    func resetMessage() { lastMessage = nil }

    /// The error for a failed GEOS call `operation`, carrying GEOS's own message.
    func failure(_ operation: String, kind: GeometryError.Kind = .library) -> GeometryError {
        let detail = lastMessage ?? "no message from GEOS"
        lastMessage = nil
        return GeometryError(kind, "GEOS \(operation) failed: \(detail)")
    }

    /// Runs a GEOS call that returns a new geometry the caller owns (NULL on exception).
    func owned(_ operation: String, _ call: (GEOSContextHandle_t) -> OpaquePointer?) throws -> GEOSObject {
        resetMessage()
        guard let pointer = call(handle) else { throw failure(operation) }
        return GEOSObject(context: self, owning: pointer)
    }

    /// Runs a GEOS predicate, which returns 1 for true, 0 for false and 2 on exception.
    func predicate(_ operation: String, _ call: (GEOSContextHandle_t) -> CChar) throws -> Bool {
        resetMessage()
        switch call(handle) {
        case 1: return true
        case 0: return false
        default: throw failure(operation)
        }
    }

    /// Runs a GEOS measure that writes a double and returns 0 on exception.
    func measure(_ operation: String, _ call: (GEOSContextHandle_t, UnsafeMutablePointer<Double>) -> Int32) throws -> Double {
        resetMessage()
        var value = 0.0
        guard call(handle, &value) != 0 else { throw failure(operation) }
        return value
    }
}
