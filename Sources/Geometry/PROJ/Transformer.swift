import CPROJ

/// Transforms coordinates from one CRS to another with axis order normalised for
/// mapping: x is longitude or easting, y is latitude or northing, whatever order the
/// CRSs' authorities define (EPSG:4326 itself is latitude first).
///
/// Where PROJ knows several operations between the CRSs, each coordinate gets the one
/// PROJ chooses for it, as `cs2cs` does.
///
/// - Important: Not thread-safe: it belongs to the ``PROJContext`` it was made in.
public final class Transformer {
    public let source: CoordinateReferenceSystem
    public let target: CoordinateReferenceSystem
    let operation: PROJObject
    var context: PROJContext { operation.context }

    /// Which way to transform.
    public enum Direction: Sendable {
        /// From `source` to `target`.
        case forward
        /// From `target` back to `source`.
        case inverse

        var proj: PJ_DIRECTION { self == .forward ? PJ_FWD : PJ_INV }
    }

    /// - Throws: `GeometryError(.transformFailed)` when PROJ finds no way between the CRSs.
    public init(from source: CoordinateReferenceSystem, to target: CoordinateReferenceSystem, context: PROJContext) throws {
        self.source = source
        self.target = target
        context.resetMessages()
        // Returns a new operation we own, or NULL when there is none.
        guard let raw = proj_create_crs_to_crs_from_pj(context.handle, source.object.pointer, target.object.pointer, nil, nil) else {
            throw GeometryError(.transformFailed, "no transformation from \(source.identityForMessages) to \(target.identityForMessages): \(context.detail(errno: proj_context_errno(context.handle)))")
        }
        let authorityOrder = PROJObject(context: context, owning: raw)
        // Returns a new operation we own (the input stays ours), or NULL on failure.
        guard let normalized = proj_normalize_for_visualization(context.handle, authorityOrder.pointer) else {
            throw GeometryError(.transformFailed, "cannot normalise the axis order from \(source.identityForMessages) to \(target.identityForMessages): \(context.detail())")
        }
        operation = PROJObject(context: context, owning: normalized)
    }

    /// A convenience for CRS definitions (`EPSG:4326`, WKT, PROJ strings).
    public convenience init(from source: String, to target: String, context: PROJContext) throws {
        try self.init(from: CoordinateReferenceSystem(source, context: context),
                      to: CoordinateReferenceSystem(target, context: context), context: context)
    }

    /// One coordinate. `z` is transformed when present; `m` is passed through.
    /// - Throws: `GeometryError(.transformFailed)` naming the coordinate when PROJ cannot
    ///   transform it (outside the projection's domain, e.g. a pole into Web Mercator).
    public func transform(_ coordinate: Coordinate, direction: Direction = .forward) throws -> Coordinate {
        try transform([coordinate], direction: direction)[0]
    }

    /// Many coordinates in one PROJ call (`proj_trans_generic`), the fast path for geometries
    /// and bulk work.
    /// - Throws: `GeometryError(.transformFailed)` naming the first coordinate that failed.
    public func transform(_ coordinates: [Coordinate], direction: Direction = .forward) throws -> [Coordinate] {
        if coordinates.isEmpty { return [] }
        var xs = coordinates.map(\.x)
        var ys = coordinates.map(\.y)
        let hasZ = coordinates.contains { $0.z != nil }
        var zs = hasZ ? coordinates.map { $0.z ?? 0 } : []
        if let failed = transformInPlace(&xs, &ys, &zs, direction: direction) {
            throw failure(coordinates[failed], direction: direction)
        }
        var result = coordinates
        for i in 0..<coordinates.count {
            result[i].x = xs[i]
            result[i].y = ys[i]
            if result[i].z != nil { result[i].z = zs[i] }
        }
        return result
    }

    /// Transforms coordinate columns in place in one PROJ call (`zs` empty when there are no
    /// Z values); returns the index of the first point PROJ could not transform, nil when
    /// every point was.
    func transformInPlace(_ xs: inout [Double], _ ys: inout [Double], _ zs: inout [Double],
                          direction: Direction) -> Int? {
        let n = xs.count
        let hasZ = !zs.isEmpty
        let stride = MemoryLayout<Double>.stride
        context.resetMessages()
        proj_errno_reset(operation.pointer)
        // Transforms in place; failed points come back as HUGE_VAL.
        xs.withUnsafeMutableBufferPointer { x in
            ys.withUnsafeMutableBufferPointer { y in
                zs.withUnsafeMutableBufferPointer { z in
                    _ = proj_trans_generic(operation.pointer, direction.proj,
                                           x.baseAddress, stride, n, y.baseAddress, stride, n,
                                           hasZ ? z.baseAddress : nil, hasZ ? stride : 0, hasZ ? n : 0,
                                           nil, 0, 0)
                }
            }
        }
        return (0..<n).first { !(xs[$0].isFinite && ys[$0].isFinite && (!hasZ || zs[$0].isFinite)) }
    }

    func failure(_ c: Coordinate, direction: Direction) -> GeometryError {
        let (from, to) = direction == .forward ? (source, target) : (target, source)
        let errno = proj_errno(operation.pointer)
        proj_errno_reset(operation.pointer)
        let z = c.z.map { ", \($0)" } ?? ""
        return GeometryError(.transformFailed,
                             "cannot transform (\(c.x), \(c.y)\(z)) from \(from.identityForMessages) to \(to.identityForMessages): \(context.detail(errno: errno))")
    }
}
