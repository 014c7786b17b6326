import CGEOS

extension GEOSContext {
    /// Whether the geometry is valid in the OGC simple-features sense, and if not, why.
    ///
    /// A geometry GEOS cannot even build (a ring of two points, an unclosed ring) is reported
    /// as invalid with GEOS's construction message rather than thrown.
    /// - Returns: `reason` is nil when valid; otherwise GEOS's reason with the location,
    ///   such as `Self-intersection at (5, 5)`.
    public func validity(_ g: Geometry) throws -> (isValid: Bool, reason: String?) {
        let o: GEOSObject
        do {
            o = try object(g)
        } catch let error as GeometryError where error.kind == .invalidGeometry {
            return (false, error.message)
        }
        resetMessage()
        var reason: UnsafeMutablePointer<CChar>?
        var location: OpaquePointer?
        // Returns 1 when valid, 0 when invalid, 2 on exception. reason is allocated by GEOS
        // (free with GEOSFree_r) and location is a new geometry we own.
        let result = GEOSisValidDetail_r(handle, o.pointer, 0, &reason, &location)
        defer { if let reason { GEOSFree_r(handle, reason) } }
        let locationObject = location.map { GEOSObject(context: self, owning: $0) }
        switch result {
        case 1:
            return (true, nil)
        case 0:
            var text = reason.map { String(cString: $0) } ?? "invalid geometry"
            if let locationObject, case .point(let p)? = try? value(locationObject), let c = p.coordinate {
                text += " at (\(c.x), \(c.y))"
            }
            return (false, text)
        default:
            throw failure("validity check")
        }
    }

    /// A valid version of the geometry that keeps every point of the input.
    ///
    /// Uses GEOS's structure method, so polygonal input gives polygonal output (a bow-tie
    /// becomes two triangles) and parts that collapse to lines or points are dropped. A
    /// geometry that is already valid comes back unchanged (GEOS would rewrite its rings).
    public func makeValid(_ g: Geometry) throws -> Geometry {
        let o = try object(g)
        if try predicate("validity check", { GEOSisValid_r($0, o.pointer) }) { return g }  // 2 on exception
        resetMessage()
        guard let params = GEOSMakeValidParams_create_r(handle) else { throw failure("make valid") }  // NULL on exception
        defer { GEOSMakeValidParams_destroy_r(handle, params) }
        // Each setter returns 0 on exception.
        guard GEOSMakeValidParams_setMethod_r(handle, params, GEOS_MAKE_VALID_STRUCTURE) != 0,
              GEOSMakeValidParams_setKeepCollapsed_r(handle, params, 0) != 0 else { throw failure("make valid") }
        let result = try owned("make valid") { GEOSMakeValidWithParams_r($0, o.pointer, params) }  // NULL on exception
        return try value(result).restoringMeasures(from: g)
    }
}
