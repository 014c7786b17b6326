import Foundation

/// Any JSON value, Codable, so that documents made elsewhere (a GeoJSON geometry from the
/// codecs) can sit inside the Codable manifest unchanged. (Geometry's `JSONValue` keeps exact
/// numbers for feature properties but is not Codable.)
public enum ManifestJSON: Sendable, Hashable, Codable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([ManifestJSON])
    case object([String: ManifestJSON])

    /// Parses JSON text.
    /// - Throws: `ExtractError` (`.package`) when the text is not JSON.
    public init(parsing text: String) throws {
        do {
            self = try JSONDecoder().decode(ManifestJSON.self, from: Data(text.utf8))
        } catch {
            throw ExtractError(.package, "not a JSON document: \((error as? DecodingError)?.words ?? error.localizedDescription)")
        }
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.singleValueContainer()
        if c.decodeNil() { self = .null }
        else if let b = try? c.decode(Bool.self) { self = .bool(b) }
        else if let d = try? c.decode(Double.self) { self = .number(d) }
        else if let s = try? c.decode(String.self) { self = .string(s) }
        else if let a = try? c.decode([ManifestJSON].self) { self = .array(a) }
        else { self = .object(try c.decode([String: ManifestJSON].self)) }
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.singleValueContainer()
        switch self {
        case .null: try c.encodeNil()
        case .bool(let b): try c.encode(b)
        case .number(let d): try c.encode(d)
        case .string(let s): try c.encode(s)
        case .array(let a): try c.encode(a)
        case .object(let o): try c.encode(o)
        }
    }

    /// The value as compact JSON text with sorted keys.
    public var text: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? String(decoding: encoder.encode(self), as: UTF8.self)) ?? "null"
    }

    public subscript(key: String) -> ManifestJSON? {
        if case .object(let o) = self { return o[key] }
        return nil
    }
}
