/// A geometry in one line for people: a borough's polygon is 30 kB of WKT, its type, size and
/// box are what a terminal or a warning can show.
extension Geometry {
    /// Every vertex stored (a ring's closing vertex counts, as in WKT).
    public var vertexCount: Int {
        var count = 0
        forEachCoordinate { _ in count += 1 }
        return count
    }

    /// The parts of a multi geometry or a collection; 1 for a single one (0 when empty).
    public var partCount: Int {
        switch self {
        case .multiPoint(let m): return m.points.count
        case .multiLineString(let m): return m.lineStrings.count
        case .multiPolygon(let m): return m.polygons.count
        case .geometryCollection(let c): return c.geometries.count
        default: return isEmpty ? 0 : 1
        }
    }

    /// `MULTIPOLYGON Z (2 parts, 1234 vertices, envelope -150.1 63, -149 64.2)`, or
    /// `POINT EMPTY`.
    public var summary: String {
        let d = dimension
        let type = type.name + (d.hasZ || d.hasM ? " " + (d.hasZ ? "Z" : "") + (d.hasM ? "M" : "") : "")
        guard let e = envelope else { return "\(type) EMPTY" }
        var parts: [String] = []
        if partCount != 1 || isMulti { parts.append("\(partCount) part\(partCount == 1 ? "" : "s")") }
        parts.append("\(vertexCount) vert\(vertexCount == 1 ? "ex" : "ices")")
        parts.append("envelope \(e.minX.shortestRepresentation) \(e.minY.shortestRepresentation), "
                     + "\(e.maxX.shortestRepresentation) \(e.maxY.shortestRepresentation)")
        return "\(type) (\(parts.joined(separator: ", ")))"
    }

    private var isMulti: Bool {
        switch self {
        case .multiPoint, .multiLineString, .multiPolygon, .geometryCollection: return true
        default: return false
        }
    }
}
