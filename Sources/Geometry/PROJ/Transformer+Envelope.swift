import CPROJ

extension Transformer {
    /// The bounds of a box after transformation.
    ///
    /// A box's edges curve under most projections, so transforming its corners alone can
    /// miss a bulge: each edge is densified with `densify` extra points first, and a box
    /// holding a pole reaches it (PROJ's `proj_trans_bounds`). Into a geographic CRS the
    /// result may have `minX > maxX` when it crosses the antimeridian.
    /// - Throws: `GeometryError(.transformFailed)` naming the box when PROJ cannot transform it.
    public func transform(_ envelope: Envelope, densify: Int = 21, direction: Direction = .forward) throws -> Envelope {
        guard densify >= 0 else {
            throw GeometryError(.invalidGeometry, "densify must be 0 or more, not \(densify)")
        }
        var minX = 0.0, minY = 0.0, maxX = 0.0, maxY = 0.0
        context.resetMessages()
        // Returns 1 on success, 0 on failure.
        let ok = proj_trans_bounds(context.handle, operation.pointer, direction.proj,
                                   envelope.minX, envelope.minY, envelope.maxX, envelope.maxY,
                                   &minX, &minY, &maxX, &maxY, Int32(clamping: densify))
        guard ok != 0, minX.isFinite, minY.isFinite, maxX.isFinite, maxY.isFinite else {
            let (from, to) = direction == .forward ? (source, target) : (target, source)
            throw GeometryError(.transformFailed,
                                "cannot transform the box (\(envelope.minX), \(envelope.minY), \(envelope.maxX), \(envelope.maxY)) from \(from.identityForMessages) to \(to.identityForMessages): \(context.detail(errno: proj_context_errno(context.handle)))")
        }
        return Envelope(minX: minX, minY: minY, maxX: maxX, maxY: maxY)
    }
}
