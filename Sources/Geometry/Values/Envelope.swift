/// An axis-aligned 2D bounding box. `minX > maxX` is allowed only where a caller says it
/// means a box crossing the antimeridian; the geometry code itself never produces one.
public struct Envelope: Sendable, Hashable {
    public var minX: Double
    public var minY: Double
    public var maxX: Double
    public var maxY: Double

    public init(minX: Double, minY: Double, maxX: Double, maxY: Double) {
        self.minX = minX
        self.minY = minY
        self.maxX = maxX
        self.maxY = maxY
    }

    public var width: Double { maxX - minX }
    public var height: Double { maxY - minY }
    public var center: Coordinate { Coordinate((minX + maxX) / 2, (minY + maxY) / 2) }

    public mutating func expand(toInclude x: Double, _ y: Double) {
        if x < minX { minX = x }
        if x > maxX { maxX = x }
        if y < minY { minY = y }
        if y > maxY { maxY = y }
    }

    public mutating func expand(toInclude other: Envelope) {
        expand(toInclude: other.minX, other.minY)
        expand(toInclude: other.maxX, other.maxY)
    }

    public func union(_ other: Envelope) -> Envelope {
        var e = self
        e.expand(toInclude: other)
        return e
    }

    /// True when the boxes share at least one point (touching edges count).
    public func intersects(_ other: Envelope) -> Bool {
        minX <= other.maxX && other.minX <= maxX && minY <= other.maxY && other.minY <= maxY
    }

    public func contains(x: Double, y: Double) -> Bool {
        x >= minX && x <= maxX && y >= minY && y <= maxY
    }

    /// The box as a closed, counter-clockwise polygon.
    public var polygon: Polygon {
        Polygon(exterior: [
            Coordinate(minX, minY), Coordinate(maxX, minY), Coordinate(maxX, maxY),
            Coordinate(minX, maxY), Coordinate(minX, minY),
        ])
    }
}
