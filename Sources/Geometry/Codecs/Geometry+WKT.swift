extension Geometry {
    /// Parses well-known text: every type, the Z, M and ZM forms (also glued, `POINTZ`, and
    /// implied by the number of ordinates, `POINT (1 2 3)`), EMPTY anywhere it is allowed,
    /// MULTIPOINT with or without parentheses around its points, and an EWKT `SRID=n;` prefix,
    /// which is skipped.
    /// - Throws: `GeometryError.malformedInput` naming the character where the text goes
    ///   wrong; `.unsupported` for curve and surface types.
    public init(wkt: String) throws {
        var parser = WKTParser(Array(wkt.utf8))
        self = try parser.parseAll()
    }

    /// The ISO well-known text (`POINT ZM (1 2 3 4)`, `POLYGON EMPTY`). Numbers are the shortest
    /// decimals that read back as the same doubles, so parsing the text gives this geometry
    /// exactly. Members of a collection take the ordinates of the whole geometry.
    public var wkt: String {
        var out = ""
        WKTWriter(dimension: dimension).write(self, into: &out)
        return out
    }
}

/// Writes ISO WKT in GDAL's compact layout: `MULTIPOINT ((1 2),(3 4))`.
struct WKTWriter {
    let dimension: CoordinateDimension

    private var suffix: String {
        switch dimension {
        case .xy: return ""
        case .xyz: return " Z"
        case .xym: return " M"
        case .xyzm: return " ZM"
        }
    }

    func write(_ g: Geometry, into out: inout String) {
        out += g.type.name
        out += suffix
        if g.isEmptyStructure {
            out += " EMPTY"
            return
        }
        out += " "
        switch g {
        case .point(let p): point(p, &out)
        case .lineString(let l): coordinates(l.coordinates, &out)
        case .polygon(let p): polygon(p, &out)
        case .multiPoint(let m): list(m.points, &out) { p, o in point(p, &o) }
        case .multiLineString(let m): list(m.lineStrings, &out) { l, o in coordinates(l.coordinates, &o) }
        case .multiPolygon(let m): list(m.polygons, &out) { p, o in polygon(p, &o) }
        case .geometryCollection(let c): list(c.geometries, &out) { member, o in write(member, into: &o) }
        }
    }

    private func list<T>(_ items: [T], _ out: inout String, _ body: (T, inout String) -> Void) {
        out += "("
        for (i, item) in items.enumerated() {
            if i > 0 { out += "," }
            body(item, &out)
        }
        out += ")"
    }

    private func point(_ p: Point, _ out: inout String) {
        guard let c = p.coordinate else {
            out += "EMPTY"
            return
        }
        out += "("
        coordinate(c, &out)
        out += ")"
    }

    private func polygon(_ p: Polygon, _ out: inout String) {
        if p.rings.isEmpty {
            out += "EMPTY"
            return
        }
        list(p.rings, &out) { ring, o in coordinates(ring, &o) }
    }

    private func coordinates(_ cs: [Coordinate], _ out: inout String) {
        if cs.isEmpty {
            out += "EMPTY"
            return
        }
        list(cs, &out) { c, o in coordinate(c, &o) }
    }

    private func coordinate(_ c: Coordinate, _ out: inout String) {
        out += c.x.shortestRepresentation
        out += " "
        out += c.y.shortestRepresentation
        // A missing ordinate of a geometry that carries it is NaN, as in WKB.
        if dimension.hasZ { out += " " + (c.z ?? .nan).shortestRepresentation }
        if dimension.hasM { out += " " + (c.m ?? .nan).shortestRepresentation }
    }
}

extension Geometry {
    /// True when the geometry has no members at all, so WKT writes `EMPTY` for it; a
    /// collection of empty members is written member by member.
    var isEmptyStructure: Bool {
        switch self {
        case .point(let p): return p.coordinate == nil
        case .lineString(let l): return l.coordinates.isEmpty
        case .polygon(let p): return p.rings.isEmpty
        case .multiPoint(let m): return m.points.isEmpty
        case .multiLineString(let m): return m.lineStrings.isEmpty
        case .multiPolygon(let m): return m.polygons.isEmpty
        case .geometryCollection(let c): return c.geometries.isEmpty
        }
    }
}
