extension Transformer {
    /// Every coordinate of the geometry, in one batch; the structure, Z and M are kept.
    /// - Throws: `GeometryError(.transformFailed)` naming the first coordinate PROJ cannot
    ///   transform.
    public func transform(_ geometry: Geometry, direction: Direction = .forward) throws -> Geometry {
        var coordinates: [Coordinate] = []
        geometry.forEachCoordinate { coordinates.append($0) }
        let transformed = try transform(coordinates, direction: direction)
        var next = 0
        return geometry.mapCoordinates { _ in
            defer { next += 1 }
            return transformed[next]
        }
    }
}
