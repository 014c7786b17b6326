import Foundation
import HTTP

/// An XYZ or TMS tile URL template: `https://host/{z}/{x}/{y}.png` (XYZ rows, counted from
/// the north) or `https://host/{z}/{x}/{-y}.png` (TMS rows, counted from the south).
public struct TileURLTemplate: Sendable, Hashable {
    private enum Part: Sendable, Hashable {
        case text(String)
        case z, x, y, tmsY
    }

    /// The template as given (it may hold credentials in its query string: never print it).
    public let template: String
    private let parts: [Part]

    /// - Throws: `TilePackageError.invalidInput` unless the template is an http(s) URL holding
    ///   `{z}`, `{x}` and one of `{y}`, `{-y}`; the message shows the template without its
    ///   query string.
    /// Whether `source` names a URL template (http or https) rather than an MBTiles file: the
    /// one test `tiles`, `create` and `estimate` share.
    public static func isURL(_ source: String) -> Bool {
        let lower = source.lowercased()
        return lower.hasPrefix("http://") || lower.hasPrefix("https://")
    }

    public init(_ template: String) throws(TilePackageError) {
        self.template = template
        let shown = HTTPError.strippingQuery(from: template)
        guard Self.isURL(template) else {
            throw TilePackageError(.invalidInput, "tile URL template '\(shown)' must start with http:// or https://")
        }
        var parts: [Part] = []
        var literal = ""
        var rest = Substring(template)
        while let open = rest.firstIndex(of: "{") {
            literal += rest[..<open]
            guard let close = rest[open...].firstIndex(of: "}") else {
                literal += rest[open...]
                rest = ""
                break
            }
            let name = rest[rest.index(after: open)..<close]
            let placeholder: Part?
            switch name {
            case "z": placeholder = .z
            case "x": placeholder = .x
            case "y": placeholder = .y
            case "-y": placeholder = .tmsY
            default: placeholder = nil
            }
            if let placeholder {
                if !literal.isEmpty { parts.append(.text(literal)) }
                literal = ""
                parts.append(placeholder)
            } else {
                literal += rest[open...close]  // not ours: kept as written
            }
            rest = rest[rest.index(after: close)...]
        }
        literal += rest
        if !literal.isEmpty { parts.append(.text(literal)) }
        self.parts = parts

        let hasY = parts.contains(.y) || parts.contains(.tmsY)
        guard parts.contains(.z), parts.contains(.x), hasY else {
            throw TilePackageError(.invalidInput,
                                   "tile URL template '\(shown)' must contain {z}, {x} and {y} (XYZ rows) or {-y} (TMS rows)")
        }
    }

    /// The URL of one tile.
    public func url(for tile: TileID) -> String {
        var url = ""
        url.reserveCapacity(template.count + 8)
        for part in parts {
            switch part {
            case .text(let text): url += text
            case .z: url += String(tile.z)
            case .x: url += String(tile.x)
            case .y: url += String(tile.y)
            case .tmsY: url += String(tile.tmsY)
            }
        }
        return url
    }

    /// The template without query string, fragment or userinfo: safe for metadata and messages.
    public var redacted: String { HTTPError.strippingQuery(from: template) }

    /// The tile format the path's extension names (`png`, `jpg`, `webp`, `pbf`), if it names one.
    public var formatFromExtension: String? {
        let path = redacted
        guard let lastSlash = path.lastIndex(of: "/"), let dot = path[lastSlash...].lastIndex(of: ".") else { return nil }
        return TileURLTemplate.format(forExtension: String(path[path.index(after: dot)...]))
    }

    static func format(forExtension ext: String) -> String? {
        switch ext.lowercased() {
        case "png": return "png"
        case "jpg", "jpeg": return "jpg"
        case "webp": return "webp"
        case "pbf", "mvt": return "pbf"
        default: return nil
        }
    }

    /// The tile format a `Content-Type` names.
    static func format(forContentType contentType: String) -> String? {
        let type = contentType.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
        switch type {
        case "image/png": return "png"
        case "image/jpeg", "image/jpg": return "jpg"
        case "image/webp": return "webp"
        case "application/x-protobuf", "application/vnd.mapbox-vector-tile", "application/protobuf": return "pbf"
        default: return nil
        }
    }
}
