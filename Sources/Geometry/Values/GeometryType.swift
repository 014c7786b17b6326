/// The OGC geometry type codes shared by WKB, WKT and GeoPackage's `gpkg_geometry_columns`.
public enum GeometryType: UInt32, Sendable, Hashable, CaseIterable {
    case geometry = 0
    case point = 1
    case lineString = 2
    case polygon = 3
    case multiPoint = 4
    case multiLineString = 5
    case multiPolygon = 6
    case geometryCollection = 7

    /// The upper-case name GeoPackage and WKT use (`MULTIPOLYGON`).
    public var name: String {
        switch self {
        case .geometry: return "GEOMETRY"
        case .point: return "POINT"
        case .lineString: return "LINESTRING"
        case .polygon: return "POLYGON"
        case .multiPoint: return "MULTIPOINT"
        case .multiLineString: return "MULTILINESTRING"
        case .multiPolygon: return "MULTIPOLYGON"
        case .geometryCollection: return "GEOMETRYCOLLECTION"
        }
    }

    public init?(name: String) {
        guard let t = GeometryType.allCases.first(where: { $0.name == name.uppercased() }) else { return nil }
        self = t
    }

    /// 0 for points, 1 for lines, 2 for polygons; nil for collections of mixed kinds.
    public var topologicalDimension: Int? {
        switch self {
        case .point, .multiPoint: return 0
        case .lineString, .multiLineString: return 1
        case .polygon, .multiPolygon: return 2
        case .geometry, .geometryCollection: return nil
        }
    }
}

extension Geometry {
    public var type: GeometryType {
        switch self {
        case .point: return .point
        case .lineString: return .lineString
        case .polygon: return .polygon
        case .multiPoint: return .multiPoint
        case .multiLineString: return .multiLineString
        case .multiPolygon: return .multiPolygon
        case .geometryCollection: return .geometryCollection
        }
    }

    public var isEmpty: Bool {
        switch self {
        case .point(let p): return p.isEmpty
        case .lineString(let l): return l.isEmpty
        case .polygon(let p): return p.isEmpty
        case .multiPoint(let m): return m.points.allSatisfy(\.isEmpty)
        case .multiLineString(let m): return m.lineStrings.allSatisfy(\.isEmpty)
        case .multiPolygon(let m): return m.polygons.allSatisfy(\.isEmpty)
        case .geometryCollection(let c): return c.geometries.allSatisfy(\.isEmpty)
        }
    }

    /// Calls `body` with every coordinate, in storage order.
    public func forEachCoordinate(_ body: (Coordinate) throws -> Void) rethrows {
        switch self {
        case .point(let p): if let c = p.coordinate { try body(c) }
        case .lineString(let l): try l.coordinates.forEach(body)
        case .polygon(let p): for r in p.rings { try r.forEach(body) }
        case .multiPoint(let m): for p in m.points { if let c = p.coordinate { try body(c) } }
        case .multiLineString(let m): for l in m.lineStrings { try l.coordinates.forEach(body) }
        case .multiPolygon(let m): for p in m.polygons { for r in p.rings { try r.forEach(body) } }
        case .geometryCollection(let c): for g in c.geometries { try g.forEachCoordinate(body) }
        }
    }

    /// A copy with every coordinate replaced by `transform(coordinate)`; the structure is kept.
    public func mapCoordinates(_ transform: (Coordinate) throws -> Coordinate) rethrows -> Geometry {
        func ring(_ r: [Coordinate]) throws -> [Coordinate] { try r.map(transform) }
        func point(_ p: Point) throws -> Point { Point(try p.coordinate.map(transform)) }
        func polygon(_ p: Polygon) throws -> Polygon { Polygon(try p.rings.map(ring)) }
        switch self {
        case .point(let p): return .point(try point(p))
        case .lineString(let l): return .lineString(LineString(try ring(l.coordinates)))
        case .polygon(let p): return .polygon(try polygon(p))
        case .multiPoint(let m): return .multiPoint(MultiPoint(try m.points.map(point)))
        case .multiLineString(let m):
            return .multiLineString(MultiLineString(try m.lineStrings.map { LineString(try ring($0.coordinates)) }))
        case .multiPolygon(let m): return .multiPolygon(MultiPolygon(try m.polygons.map(polygon)))
        case .geometryCollection(let c):
            return .geometryCollection(GeometryCollection(try c.geometries.map { try $0.mapCoordinates(transform) }))
        }
    }

    /// The ordinates carried, taken from the first coordinate (xy for an empty geometry).
    public var dimension: CoordinateDimension {
        var found: CoordinateDimension?
        forEachCoordinateUntil { found = $0.dimension; return true }
        return found ?? .xy
    }

    /// The 2D bounding box; nil for an empty geometry.
    public var envelope: Envelope? {
        var e: Envelope?
        forEachCoordinate { c in
            if e == nil { e = Envelope(minX: c.x, minY: c.y, maxX: c.x, maxY: c.y) } else { e!.expand(toInclude: c.x, c.y) }
        }
        return e
    }

    private func forEachCoordinateUntil(_ body: (Coordinate) -> Bool) {
        struct Stop: Error {}
        try? forEachCoordinate { if body($0) { throw Stop() } }
    }
}
