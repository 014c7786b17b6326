/// A JSON value, the one type for every JSON the project reads or writes: `--json` output,
/// GeoJSON, the manifest's area. Objects keep their keys in the order written (or read), so
/// output is deterministic and reads in a sensible order; whole numbers written without a
/// fraction or exponent that fit in 64 bits stay exact as `.int`.
///
/// ```swift
/// let report: JSONValue = ["package": .string(path), "tiles": .int(count), "bounds": [-170, 52.5]]
/// context.print(report.prettyPrinted)
/// ```
public enum JSONValue: Sendable, Hashable {
    case null
    case bool(Bool)
    /// An integer, printed exactly (counts, ids, bytes).
    case int(Int64)
    /// A floating-point number, printed with the fewest digits that read back the same value.
    /// Non-finite values, which JSON cannot express, are printed as `null`.
    case number(Double)
    case string(String)
    case array([JSONValue])
    /// Members in order; a key given twice is written twice, so do not.
    case object([JSONMember])
}

/// One `"key": value` member of a JSON object.
public struct JSONMember: Sendable, Hashable {
    public var key: String
    public var value: JSONValue

    public init(_ key: String, _ value: JSONValue) {
        self.key = key
        self.value = value
    }
}

extension JSONValue {
    /// An object from key-value pairs, in the given order.
    public static func object(_ pairs: KeyValuePairs<String, JSONValue>) -> JSONValue {
        .object(pairs.map { JSONMember($0.key, $0.value) })
    }

    /// An integer from any integer type.
    public static func int<T: BinaryInteger>(_ value: T) -> JSONValue {
        .int(Int64(clamping: value))
    }

    /// `.string(value)`, or `.null` for nil.
    public static func string(_ value: String?) -> JSONValue {
        value.map(JSONValue.string) ?? .null
    }

    /// The value of a member of an object, or nil.
    public subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.key == key }?.value
    }

    /// The number as a double, for `.int` and `.number`.
    public var doubleValue: Double? {
        switch self {
        case .int(let i): return Double(i)
        case .number(let d): return d
        default: return nil
        }
    }

    public var stringValue: String? {
        if case .string(let s) = self { return s }
        return nil
    }

    /// An object's members by key (the last of a key given twice), nil for anything else.
    public var members: [String: JSONValue]? {
        guard case .object(let members) = self else { return nil }
        return Dictionary(members.map { ($0.key, $0.value) }, uniquingKeysWith: { _, last in last })
    }

    /// What makes `text` not JSON, and where (`expected ',' or '}' at line 3, column 2 (byte
    /// 45)`); nil when it is JSON.
    public static func syntaxProblem(in text: String) -> String? {
        var bytes = Array(text.utf8)
        return bytes.withUnsafeMutableBytes { buffer in
            var parser = JSONParser(UnsafeRawBufferPointer(buffer), source: "")
            do { _ = try parser.parseDocument() } catch { return parser.problem ?? "\(error)" }
            return nil
        }
    }

    /// Parses JSON text.
    /// - Parameter source: names the input in the error ("manifest.json").
    /// - Throws: ``GeometryError`` (`malformedInput`) naming the problem and its byte offset.
    public init(parsing text: String, source: String) throws {
        var bytes = Array(text.utf8)
        self = try bytes.withUnsafeMutableBytes { buffer in
            var parser = JSONParser(UnsafeRawBufferPointer(buffer), source: source)
            return try parser.parseDocument()
        }
    }
}

extension JSONValue: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral,
    ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral, ExpressibleByStringLiteral,
    ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral {
    public init(nilLiteral: ()) { self = .null }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(integerLiteral value: Int64) { self = .int(value) }
    public init(floatLiteral value: Double) { self = .number(value) }
    public init(stringLiteral value: String) { self = .string(value) }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    /// Keys keep the order written in the literal.
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(elements.map { JSONMember($0.0, $0.1) })
    }
}
