import Foundation

/// Reading GeoJSON (RFC 7946) documents: geometries, features and feature collections.
///
/// Positions carry x, y and an optional z; a fourth and further numbers are ignored, and M
/// values are never written, since RFC 7946 positions have no measure.
public enum GeoJSON {
    /// A GeoJSON feature: its geometry (nil for `"geometry": null`) and properties.
    public typealias Feature = (geometry: Geometry?, properties: [String: JSONValue])

    /// The geometries of a GeoJSON document: a geometry object gives itself, a Feature its
    /// geometry, a FeatureCollection the geometries of its features; null geometries are
    /// left out. Used to read areas of interest.
    /// - Throws: `GeometryError.malformedInput` for invalid JSON or GeoJSON.
    public static func geometries(in data: Data) throws -> [Geometry] {
        let document = try parse(data)
        switch try typeName(of: document, at: "the document") {
        case "Feature", "FeatureCollection":
            return try features(of: document).compactMap(\.geometry)
        default:
            return [try geometry(from: document, path: "the document", depth: 0)]
        }
    }

    /// The features of a Feature or FeatureCollection document, in order.
    /// - Throws: `GeometryError.malformedInput` for invalid JSON, a document of another
    ///   type, or a feature without a valid geometry member.
    public static func features(in data: Data) throws -> [Feature] {
        try features(of: try parse(data))
    }

    // MARK: Internals

    static func parse(_ data: Data) throws -> JSONValue {
        try data.withUnsafeBytes { buffer in
            var parser = JSONParser(buffer, source: "GeoJSON")
            return try parser.parseDocument()
        }
    }

    private static func features(of document: JSONValue) throws -> [Feature] {
        switch try typeName(of: document, at: "the document") {
        case "Feature":
            return [try feature(document, path: "the Feature")]
        case "FeatureCollection":
            guard case .array(let items)? = document["features"] else {
                throw invalid("the FeatureCollection has no \"features\" array")
            }
            return try items.enumerated().map { try feature($1, path: "feature \($0)") }
        case let other:
            throw invalid("expected a Feature or FeatureCollection, found a \(other)")
        }
    }

    private static func feature(_ value: JSONValue, path: String) throws -> Feature {
        guard try typeName(of: value, at: path) == "Feature" else { throw invalid("\(path) is not a Feature") }
        let geometry: Geometry?
        switch value["geometry"] {
        case nil: throw invalid("\(path) has no \"geometry\" member")
        case .null?: geometry = nil
        case let g?: geometry = try self.geometry(from: g, path: "\(path).geometry", depth: 0)
        }
        let properties: [String: JSONValue]
        switch value["properties"] {
        case nil, .null?: properties = [:]
        case let object?:
            guard let members = object.members else { throw invalid("\(path).properties is not an object") }
            properties = members
        }
        return (geometry, properties)
    }

    private static func typeName(of value: JSONValue, at path: String) throws -> String {
        guard case .object = value else { throw invalid("\(path) is not a JSON object") }
        guard let t = value["type"]?.stringValue else { throw invalid("\(path) has no \"type\" string") }
        return t
    }

    static func geometry(from value: JSONValue, path: String, depth: Int) throws -> Geometry {
        guard depth <= WKBReader.maximumDepth else {
            throw invalid("geometry collections nested more than \(WKBReader.maximumDepth) deep at \(path)")
        }
        let type = try typeName(of: value, at: path)
        if type == "GeometryCollection" {
            guard case .array(let members)? = value["geometries"] else {
                throw invalid("\(path) (GeometryCollection) has no \"geometries\" array")
            }
            return .geometryCollection(GeometryCollection(try members.enumerated().map {
                try geometry(from: $1, path: "\(path).geometries[\($0)]", depth: depth + 1)
            }))
        }
        guard let coordinates = value["coordinates"] else { throw invalid("\(path) (\(type)) has no \"coordinates\"") }
        let at = "\(path).coordinates"
        switch type {
        case "Point":
            if case .array(let a) = coordinates, a.isEmpty { return .point(Point(nil)) }
            return .point(Point(try position(coordinates, at)))
        case "LineString":
            return .lineString(LineString(try positions(coordinates, at)))
        case "Polygon":
            return .polygon(try polygon(coordinates, at))
        case "MultiPoint":
            return .multiPoint(MultiPoint(try array(coordinates, at).enumerated().map {
                if case .array(let a) = $1, a.isEmpty { return Point(nil) }
                return Point(try position($1, "\(at)[\($0)]"))
            }))
        case "MultiLineString":
            return .multiLineString(MultiLineString(try array(coordinates, at).enumerated().map {
                LineString(try positions($1, "\(at)[\($0)]"))
            }))
        case "MultiPolygon":
            return .multiPolygon(MultiPolygon(try array(coordinates, at).enumerated().map {
                try polygon($1, "\(at)[\($0)]")
            }))
        default:
            throw invalid("\(path) has unknown geometry type \"\(type)\"")
        }
    }

    private static func polygon(_ v: JSONValue, _ at: String) throws -> Polygon {
        Polygon(try array(v, at).enumerated().map { try positions($1, "\(at)[\($0)]") })
    }

    private static func positions(_ v: JSONValue, _ at: String) throws -> [Coordinate] {
        try array(v, at).enumerated().map { try position($1, "\(at)[\($0)]") }
    }

    private static func array(_ v: JSONValue, _ at: String) throws -> [JSONValue] {
        guard case .array(let a) = v else { throw invalid("\(at) is not an array") }
        return a
    }

    private static func position(_ v: JSONValue, _ at: String) throws -> Coordinate {
        let a = try array(v, at)
        guard a.count >= 2 else { throw invalid("\(at) is a position with \(a.count) numbers, at least 2 needed") }
        func number(_ i: Int) throws -> Double {
            guard let d = a[i].doubleValue else { throw invalid("\(at)[\(i)] is not a number") }
            return d
        }
        return Coordinate(x: try number(0), y: try number(1), z: a.count >= 3 ? try number(2) : nil)
    }

    private static func invalid(_ what: String) -> GeometryError {
        GeometryError(.malformedInput, "GeoJSON: \(what)")
    }
}

extension Geometry {
    /// Reads one GeoJSON geometry object (a Feature or FeatureCollection is refused; use
    /// `GeoJSON.geometries(in:)` for those).
    /// - Throws: `GeometryError.malformedInput` for invalid JSON or an invalid geometry object.
    public init(geoJSON data: Data) throws {
        self = try GeoJSON.geometry(from: try GeoJSON.parse(data), path: "the geometry", depth: 0)
    }

    /// The GeoJSON geometry object of this geometry, compact, with numbers that read back as
    /// the same doubles. Z is written, M is dropped (RFC 7946 has no measures); an empty
    /// point is `"coordinates":[]`; a non-finite number is written as `null`.
    /// - Parameter rfc7946Winding: wind exterior rings counter-clockwise and holes clockwise,
    ///   as RFC 7946 asks of writers; `false` keeps the rings as they are.
    public func geoJSON(rfc7946Winding: Bool = true) -> String {
        var out = ""
        GeoJSONWriter(wind: rfc7946Winding).write(self, into: &out)
        return out
    }
}

struct GeoJSONWriter {
    let wind: Bool

    func write(_ g: Geometry, into out: inout String) {
        switch g {
        case .point(let p):
            out += #"{"type":"Point","coordinates":"#
            if let c = p.coordinate { position(c, &out) } else { out += "[]" }
        case .lineString(let l):
            out += #"{"type":"LineString","coordinates":"#
            positions(l.coordinates, &out)
        case .polygon(let p):
            out += #"{"type":"Polygon","coordinates":"#
            polygon(p, &out)
        case .multiPoint(let m):
            out += #"{"type":"MultiPoint","coordinates":"#
            list(m.points, &out) { p, o in if let c = p.coordinate { position(c, &o) } else { o += "[]" } }
        case .multiLineString(let m):
            out += #"{"type":"MultiLineString","coordinates":"#
            list(m.lineStrings, &out) { l, o in positions(l.coordinates, &o) }
        case .multiPolygon(let m):
            out += #"{"type":"MultiPolygon","coordinates":"#
            list(m.polygons, &out) { p, o in polygon(p, &o) }
        case .geometryCollection(let c):
            out += #"{"type":"GeometryCollection","geometries":"#
            list(c.geometries, &out) { member, o in write(member, into: &o) }
        }
        out += "}"
    }

    private func list<T>(_ items: [T], _ out: inout String, _ body: (T, inout String) -> Void) {
        out += "["
        for (i, item) in items.enumerated() {
            if i > 0 { out += "," }
            body(item, &out)
        }
        out += "]"
    }

    private func polygon(_ p: Polygon, _ out: inout String) {
        list(Array(p.rings.enumerated()), &out) { item, o in
            let (i, ring) = item
            guard wind else { return positions(ring, &o) }
            let area = ring.signedArea
            // Exterior counter-clockwise (positive area), holes clockwise.
            let reverse = i == 0 ? area < 0 : area > 0
            positions(reverse ? ring.reversed() : ring, &o)
        }
    }

    private func positions(_ cs: [Coordinate], _ out: inout String) {
        list(cs, &out) { c, o in position(c, &o) }
    }

    private func position(_ c: Coordinate, _ out: inout String) {
        out += "["
        number(c.x, &out)
        out += ","
        number(c.y, &out)
        if let z = c.z {
            out += ","
            number(z, &out)
        }
        out += "]"
    }

    private func number(_ v: Double, _ out: inout String) {
        out += v.isFinite ? v.shortestRepresentation : "null"
    }
}

extension Array where Element == Coordinate {
    /// The shoelace area: positive when the ring runs counter-clockwise.
    var signedArea: Double {
        guard count >= 3 else { return 0 }
        var sum = 0.0
        // Relative to the first vertex, to keep precision far from the origin.
        let x0 = self[0].x, y0 = self[0].y
        for i in 1..<(count - 1) {
            sum += (self[i].x - x0) * (self[i + 1].y - y0) - (self[i + 1].x - x0) * (self[i].y - y0)
        }
        return sum / 2
    }
}
