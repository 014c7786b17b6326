@testable import Geometry

extension PreparedGeometry {
    /// True when the box's interior meets the prepared geometry's interior: it intersects
    /// and does not merely touch: whether a tile square is needed.
    func interiorsIntersect(_ box: Envelope) throws -> Bool {
        try intersects(box) && !touches(box)
    }
}
