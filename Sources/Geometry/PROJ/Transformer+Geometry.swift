extension Transformer {
    /// Every coordinate of the geometry, in one batch; the structure, Z and M are kept.
    /// - Throws: `GeometryError(.transformFailed)` naming the first coordinate PROJ cannot
    ///   transform.
    public func transform(_ geometry: Geometry, direction: Direction = .forward) throws -> Geometry {
        // Straight into PROJ's columns (a geometry is transformed per feature: no array of
        // coordinates in between).
        var xs: [Double] = [], ys: [Double] = [], zs: [Double] = []
        var hasZ = false
        geometry.forEachCoordinate { c in
            xs.append(c.x)
            ys.append(c.y)
            zs.append(c.z ?? 0)
            if c.z != nil { hasZ = true }
        }
        if xs.isEmpty { return geometry }
        if !hasZ { zs = [] }
        if let failed = transformInPlace(&xs, &ys, &zs, direction: direction) {
            var index = 0
            var original = Coordinate(x: 0, y: 0)
            geometry.forEachCoordinate { c in
                if index == failed { original = c }
                index += 1
            }
            throw failure(original, direction: direction)
        }
        var next = 0
        return geometry.mapCoordinates { c in
            defer { next += 1 }
            var moved = c
            moved.x = xs[next]
            moved.y = ys[next]
            if moved.z != nil { moved.z = zs[next] }
            return moved
        }
    }
}
