/// A strict RFC 8259 JSON parser over UTF-8 bytes, with a nesting limit so hostile input
/// cannot exhaust the stack. Written here rather than using JSONSerialization to keep
/// numbers exact (integers apart from doubles), members in their order, and errors precise.
struct JSONParser {
    static let maximumDepth = 128

    private let bytes: UnsafeRawBufferPointer
    private var position = 0
    private let source: String
    /// What stopped the parse and where, once it stopped: `expected ':' at line 2, column 7`.
    private(set) var problem: String?

    /// - Parameter source: names the input in error messages ("GeoJSON").
    init(_ bytes: UnsafeRawBufferPointer, source: String) {
        self.bytes = bytes
        self.source = source
    }

    mutating func parseDocument() throws -> JSONValue {
        // A UTF-8 byte-order mark is tolerated, as many tools write one.
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { position = 3 }
        let v = try value(depth: 0)
        skipSpace()
        if position < bytes.count { throw error("unexpected data after the JSON value") }
        return v
    }

    private mutating func value(depth: Int) throws -> JSONValue {
        guard depth <= Self.maximumDepth else { throw error("JSON nested more than \(Self.maximumDepth) deep") }
        skipSpace()
        guard position < bytes.count else { throw error("unexpected end of the input") }
        switch bytes[position] {
        case UInt8(ascii: "{"):
            position += 1
            var object: [JSONMember] = []
            skipSpace()
            if consume(UInt8(ascii: "}")) { return .object(object) }
            repeat {
                skipSpace()
                guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") else { throw error("expected a string key") }
                let key = try string()
                skipSpace()
                guard consume(UInt8(ascii: ":")) else { throw error("expected ':'") }
                let member = try value(depth: depth + 1)
                // A key given twice keeps its first place and its last value, as JavaScript reads it.
                if let index = object.firstIndex(where: { $0.key == key }) {
                    object[index].value = member
                } else {
                    object.append(JSONMember(key, member))
                }
                skipSpace()
            } while consume(UInt8(ascii: ","))
            guard consume(UInt8(ascii: "}")) else { throw error("expected ',' or '}'") }
            return .object(object)
        case UInt8(ascii: "["):
            position += 1
            var array: [JSONValue] = []
            skipSpace()
            if consume(UInt8(ascii: "]")) { return .array(array) }
            repeat {
                array.append(try value(depth: depth + 1))
                skipSpace()
            } while consume(UInt8(ascii: ","))
            guard consume(UInt8(ascii: "]")) else { throw error("expected ',' or ']'") }
            return .array(array)
        case UInt8(ascii: "\""):
            return .string(try string())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        default:
            return try number()
        }
    }

    private mutating func literal(_ word: String) throws {
        for c in word.utf8 {
            guard position < bytes.count, bytes[position] == c else { throw error("invalid literal") }
            position += 1
        }
    }

    private mutating func number() throws -> JSONValue {
        let start = position
        var isInteger = true
        _ = consume(UInt8(ascii: "-"))
        let firstDigit = position
        let integerDigits = digits()
        guard integerDigits > 0 else { throw error("invalid value") }
        if integerDigits > 1, bytes[firstDigit] == UInt8(ascii: "0") {
            position = start
            throw error("a number with a leading zero")
        }
        if consume(UInt8(ascii: ".")) {
            isInteger = false
            guard digits() > 0 else { throw error("a number without digits after '.'") }
        }
        if position < bytes.count, bytes[position] | 0x20 == UInt8(ascii: "e") {
            position += 1
            isInteger = false
            if !consume(UInt8(ascii: "+")) { _ = consume(UInt8(ascii: "-")) }
            guard digits() > 0 else { throw error("a number without exponent digits") }
        }
        let text = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
        if isInteger, let i = Int64(text) { return .int(i) }
        guard let d = Double(text) else { throw error("invalid number '\(text)'") }
        return .number(d)
    }

    private mutating func digits() -> Int {
        let start = position
        while position < bytes.count, bytes[position] >= UInt8(ascii: "0"), bytes[position] <= UInt8(ascii: "9") { position += 1 }
        return position - start
    }

    private mutating func string() throws -> String {
        position += 1 // the opening quote
        var out: [UInt8] = []
        while true {
            guard position < bytes.count else { throw error("unterminated string") }
            let c = bytes[position]
            position += 1
            switch c {
            case UInt8(ascii: "\""):
                return String(decoding: out, as: UTF8.self)
            case UInt8(ascii: "\\"):
                guard position < bytes.count else { throw error("unterminated string") }
                let e = bytes[position]
                position += 1
                switch e {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(e)
                case UInt8(ascii: "b"): out.append(0x08)
                case UInt8(ascii: "f"): out.append(0x0C)
                case UInt8(ascii: "n"): out.append(0x0A)
                case UInt8(ascii: "r"): out.append(0x0D)
                case UInt8(ascii: "t"): out.append(0x09)
                case UInt8(ascii: "u"):
                    var scalar = try hex4()
                    if (0xD800..<0xDC00).contains(scalar), bytes.count - position >= 6,
                       bytes[position] == UInt8(ascii: "\\"), bytes[position + 1] == UInt8(ascii: "u") {
                        let save = position
                        position += 2
                        let low = try hex4()
                        if (0xDC00..<0xE000).contains(low) {
                            scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                        } else {
                            position = save
                        }
                    }
                    // A lone surrogate becomes U+FFFD rather than an error, as browsers do.
                    out.append(contentsOf: String(Character(Unicode.Scalar(scalar) ?? "\u{FFFD}")).utf8)
                default:
                    throw error("invalid escape '\\\(Character(Unicode.Scalar(e)))'")
                }
            case 0..<0x20:
                throw error("control character in a string")
            default:
                out.append(c)
            }
        }
    }

    private mutating func hex4() throws -> UInt32 {
        guard bytes.count - position >= 4 else { throw error("truncated \\u escape") }
        var v: UInt32 = 0
        for _ in 0..<4 {
            let c = bytes[position]
            let d: UInt8
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): d = c - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): d = c - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): d = c - UInt8(ascii: "A") + 10
            default: throw error("invalid \\u escape")
            }
            v = v << 4 | UInt32(d)
            position += 1
        }
        return v
    }

    private mutating func consume(_ c: UInt8) -> Bool {
        if position < bytes.count, bytes[position] == c {
            position += 1
            return true
        }
        return false
    }

    private mutating func skipSpace() {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x09, 0x0A, 0x0D: position += 1
            default: return
            }
        }
    }

    private mutating func error(_ what: String) -> GeometryError {
        let problem = "\(what) at \(location)"
        self.problem = problem
        return GeometryError(.malformedInput, "\(source): invalid JSON: \(problem)")
    }

    /// Where the parser is, as an editor shows it: `line 3, column 2 (byte 45)`.
    private var location: String {
        var line = 1
        var lineStart = 0
        for index in 0..<min(position, bytes.count) where bytes[index] == 0x0A {
            line += 1
            lineStart = index + 1
        }
        return "line \(line), column \(position - lineStart + 1) (byte \(position))"
    }
}
