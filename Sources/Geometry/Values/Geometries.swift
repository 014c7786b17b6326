/// A point; `coordinate == nil` is the empty point.
public struct Point: Sendable, Hashable {
    public var coordinate: Coordinate?
    public init(_ coordinate: Coordinate?) { self.coordinate = coordinate }
    public init(x: Double, y: Double, z: Double? = nil, m: Double? = nil) {
        self.coordinate = Coordinate(x: x, y: y, z: z, m: m)
    }
    public var isEmpty: Bool { coordinate == nil }
}

public struct LineString: Sendable, Hashable {
    public var coordinates: [Coordinate]
    public init(_ coordinates: [Coordinate]) { self.coordinates = coordinates }
    public var isEmpty: Bool { coordinates.isEmpty }
}

/// A polygon: `rings[0]` is the exterior ring, the rest are holes. No rings is the empty polygon.
public struct Polygon: Sendable, Hashable {
    public var rings: [[Coordinate]]
    public init(_ rings: [[Coordinate]]) { self.rings = rings }
    public init(exterior: [Coordinate], holes: [[Coordinate]] = []) { self.rings = [exterior] + holes }
    public var exterior: [Coordinate]? { rings.first }
    public var holes: ArraySlice<[Coordinate]> { rings.dropFirst() }
    public var isEmpty: Bool { rings.isEmpty || rings[0].isEmpty }
}

public struct MultiPoint: Sendable, Hashable {
    public var points: [Point]
    public init(_ points: [Point]) { self.points = points }
}

public struct MultiLineString: Sendable, Hashable {
    public var lineStrings: [LineString]
    public init(_ lineStrings: [LineString]) { self.lineStrings = lineStrings }
}

public struct MultiPolygon: Sendable, Hashable {
    public var polygons: [Polygon]
    public init(_ polygons: [Polygon]) { self.polygons = polygons }
}

public struct GeometryCollection: Sendable, Hashable {
    public var geometries: [Geometry]
    public init(_ geometries: [Geometry]) { self.geometries = geometries }
}

/// Any simple-features geometry.
public indirect enum Geometry: Sendable, Hashable {
    case point(Point)
    case lineString(LineString)
    case polygon(Polygon)
    case multiPoint(MultiPoint)
    case multiLineString(MultiLineString)
    case multiPolygon(MultiPolygon)
    case geometryCollection(GeometryCollection)
}
