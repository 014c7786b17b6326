import Foundation
import Geometry
import PkgBuildKit

/// `X,Y` on the command line (`--at -150.5,63.3`, `--move 1523400,1234500`).
struct CoordinateArgument: ExpressibleByArgument {
    var coordinate: Coordinate

    init?(argument: String) {
        let parts = argument.split(separator: ",", omittingEmptySubsequences: false)
            .map { $0.trimmingCharacters(in: .whitespaces) }
        guard parts.count == 2, let x = Double(parts[0]), let y = Double(parts[1]), x.isFinite, y.isFinite else {
            return nil
        }
        coordinate = Coordinate(x, y)
    }

    static var expectedValue: String { "X,Y (two numbers, x first: longitude,latitude for EPSG:4326)" }
}

/// `X,Y` or `X,Y,Z` (`--move`): a Z given replaces the point's, else the point keeps its own.
struct PositionArgument: ExpressibleByArgument {
    var coordinate: Coordinate

    init?(argument: String) {
        let parts = argument.split(separator: ",", omittingEmptySubsequences: false)
        let values = parts.compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard values.count == parts.count, values.count == 2 || values.count == 3, values.allSatisfy(\.isFinite) else {
            return nil
        }
        coordinate = Coordinate(x: values[0], y: values[1], z: values.count == 3 ? values[2] : nil)
    }

    static var expectedValue: String { "X,Y or X,Y,Z (x first: longitude,latitude for EPSG:4326)" }
}

extension FeatureID: ExpressibleByArgument {
    public init?(argument: String) { self.init(argument) }
    public static var expectedValue: String { "a globalid ({UUID}, any case, braces optional) or an integer fid" }
}

extension Tolerance: ExpressibleByArgument {
    public init?(argument: String) { self.init(argument) }
    public static var expectedValue: String { "a distance such as 25m or 0.5km, or pixels at a zoom such as 5px@z12" }
}

/// Output shared by `identify`, `related` and `edit`.
enum FeatureOutput {
    /// A feature as a JSON object: layer, fid, globalid, attributes, geometry (summarised, or
    /// with its WKT when `fullGeometry`; in the layer's CRS).
    static func json(_ feature: Feature, extra: [JSONMember] = [], fullGeometry: Bool = false) -> JSONValue {
        var members = extra + [
            JSONMember("layer", .string(feature.layer)),
            JSONMember("fid", .int(feature.fid)),
            JSONMember("globalid", .string(feature.globalID)),
            JSONMember("attributes", .object(feature.attributes.map { JSONMember($0.name, json($0.value)) })),
        ]
        if let geometry = feature.geometry { members.append(JSONMember("geometry", geometryJSON(geometry, full: fullGeometry))) }
        return .object(members)
    }

    static func json(_ value: FieldValue) -> JSONValue {
        switch value {
        case .null: .null
        case .integer(let v): .int(v)
        case .real(let v): .number(v)
        case .text(let v): .string(v)
        case .textBytes: .string(value.displayText ?? "")
        case .blob(let bytes):
            .object([JSONMember("byte_count", .int(bytes.count)), JSONMember("hex", .string(hex(bytes.prefix(blobShown)))),
                     JSONMember("complete", .bool(bytes.count <= blobShown))])
        }
    }

    /// `name=value` pairs for a text table, text unquoted.
    static func attributes(_ feature: Feature) -> String {
        feature.attributes.map { "\($0.name)=\(text($0.value))" }.joined(separator: "  ")
    }

    static func text(_ value: FieldValue) -> String {
        switch value {
        case .text(let v): v
        case .textBytes: value.displayText ?? ""
        case .blob(let bytes):
            "x'\(hex(bytes.prefix(blobShown)))\(bytes.count > blobShown ? "..." : "")' (\(bytes.count) byte\(bytes.count == 1 ? "" : "s"))"
        default: value.description
        }
    }

    /// How many bytes of a BLOB are shown: enough to tell a PNG from a JPEG.
    static let blobShown = 16

    /// Upper-case hex digits, as SQLite's `hex()` writes them.
    static func hex(_ bytes: ArraySlice<UInt8>) -> String {
        bytes.map { String(format: "%02X", $0) }.joined()
    }

    /// `parks fid 3 {8A3B...}`: how messages name a feature.
    static func name(_ feature: Feature) -> String {
        "\(feature.layer) fid \(feature.fid)" + (feature.globalID.map { " \($0)" } ?? "")
    }

    /// Metres with a precision that suits the distance.
    static func meters(_ distance: Double) -> String {
        distance < 10 ? String(format: "%.2f m", distance) : String(format: "%.1f m", distance)
    }
}
