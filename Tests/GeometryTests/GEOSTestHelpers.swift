@testable import Geometry

/// Small builders for the GEOS tests' hand-made shapes.
enum Shapes {
    static func square(_ minX: Double, _ minY: Double, _ size: Double) -> Geometry {
        .polygon(Envelope(minX: minX, minY: minY, maxX: minX + size, maxY: minY + size).polygon)
    }

    static func line(_ points: (Double, Double)...) -> Geometry {
        .lineString(LineString(points.map { Coordinate($0.0, $0.1) }))
    }

    static func point(_ x: Double, _ y: Double) -> Geometry {
        .point(Point(x: x, y: y))
    }
}
