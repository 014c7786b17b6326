import Geometry

/// Geometries in command output: a summary (type, parts, vertices, envelope) unless the
/// whole geometry is asked for, since one borough's polygon is tens of kilobytes of WKT.
extension FeatureOutput {
    /// `{"type": "MULTIPOLYGON", "dimension": "XY", "parts": 1, "vertices": 1234,
    /// "envelope": [minx, miny, maxx, maxy]}`, with `"wkt"` when `full`.
    static func geometryJSON(_ geometry: Geometry, full: Bool) -> JSONValue {
        let d = geometry.dimension
        var members = [
            JSONMember("type", .string(geometry.type.name)),
            JSONMember("dimension", .string("XY" + (d.hasZ ? "Z" : "") + (d.hasM ? "M" : ""))),
            JSONMember("parts", .int(geometry.partCount)),
            JSONMember("vertices", .int(geometry.vertexCount)),
            JSONMember("envelope", geometry.envelope.map { .array([.number($0.minX), .number($0.minY), .number($0.maxX), .number($0.maxY)]) } ?? .null),
        ]
        if full { members.append(JSONMember("wkt", .string(geometry.wkt))) }
        return .object(members)
    }

    /// The WKT when `full` or when it is no longer than a summary would be (a point), else
    /// ``Geometry/summary``.
    static func geometryText(_ geometry: Geometry, full: Bool) -> String {
        let wkt = geometry.wkt
        return full || wkt.count <= shortWKT ? wkt : geometry.summary
    }

    /// WKT up to this length is shown as it is in text output.
    static let shortWKT = 100
}

extension ArgumentDefinition {
    /// `--full-geometry`, for the commands that print features.
    static let fullGeometry = ArgumentDefinition.flag(
        "full-geometry", help: "Print geometries whole (WKT) instead of summarised (type, parts, vertices, envelope).")
}
