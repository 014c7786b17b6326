import Geodatabase

/// A row's identity across the databases: its table (without A-Z letter case, as SQLite
/// compares names) and global id.
///
/// A sync holds a key for every row it uploads or downloads (hundreds of thousands in a large
/// package), so a global id spelled as a UUID is kept in its 16 bytes, not as text.
public struct RowKey: Hashable, Sendable {
    public var table: SQLName
    private var id: CompactGlobalID

    public var globalID: String { id.text }

    public init(_ table: String, _ globalID: String) {
        self.table = SQLName(table)
        id = CompactGlobalID(globalID)
    }
}

/// A global id in 16 bytes and its spelling when its text is a UUID written as sources write
/// them (upper or lower case hex, with or without braces), else its text. The text gives back
/// exactly the text it was made of, so two ids are equal exactly when their texts are.
enum CompactGlobalID: Hashable, Sendable {
    case uuid(high: UInt64, low: UInt64, spelling: Spelling)
    case text(String)

    struct Spelling: Hashable, Sendable {
        var braces: Bool
        var uppercase: Bool
    }

    init(_ text: String) {
        self = Self.parse(text) ?? .text(text)
    }

    var text: String {
        switch self {
        case .text(let text): return text
        case .uuid(let high, let low, let spelling): return Self.format(high: high, low: low, spelling)
        }
    }

    /// Where the four dashes of `8-4-4-4-12` stand in its 36 characters.
    private static func isDashIndex(_ i: Int) -> Bool { i == 8 || i == 13 || i == 18 || i == 23 }

    /// A sync parses an id for every row it touches: over the string's own bytes, no copy.
    private static func parse(_ text: String) -> CompactGlobalID? {
        var text = text
        return text.withUTF8 { parse(utf8: $0) }
    }

    private static func parse(utf8 bytes: UnsafeBufferPointer<UInt8>) -> CompactGlobalID? {
        var body = bytes[...]
        let braces = body.first == UInt8(ascii: "{")
        if braces {
            guard body.last == UInt8(ascii: "}") else { return nil }
            body = body.dropFirst().dropLast()
        }
        guard body.count == 36 else { return nil }
        var high: UInt64 = 0, low: UInt64 = 0, digits = 0, upper = false, lower = false
        for (i, byte) in zip(0..., body) {
            if isDashIndex(i) {
                guard byte == UInt8(ascii: "-") else { return nil }
                continue
            }
            let nibble: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): nibble = byte - UInt8(ascii: "0")
            case UInt8(ascii: "A")...UInt8(ascii: "F"): nibble = byte - UInt8(ascii: "A") + 10; upper = true
            case UInt8(ascii: "a")...UInt8(ascii: "f"): nibble = byte - UInt8(ascii: "a") + 10; lower = true
            default: return nil
            }
            if digits < 16 { high = high << 4 | UInt64(nibble) } else { low = low << 4 | UInt64(nibble) }
            digits += 1
        }
        // Mixed case has no single spelling to give back: kept as text.
        guard !(upper && lower) else { return nil }
        return .uuid(high: high, low: low, spelling: Spelling(braces: braces, uppercase: upper))
    }

    private static func format(high: UInt64, low: UInt64, _ spelling: Spelling) -> String {
        let hex: StaticString = spelling.uppercase ? "0123456789ABCDEF" : "0123456789abcdef"
        return String(unsafeUninitializedCapacity: spelling.braces ? 38 : 36) { out in
            hex.withUTF8Buffer { hex in
                var n = 0
                if spelling.braces { out[n] = UInt8(ascii: "{"); n += 1 }
                var digit = 0
                for i in 0..<36 {
                    if isDashIndex(i) { out[n] = UInt8(ascii: "-") } else {
                        let word = digit < 16 ? high : low
                        out[n] = hex[Int(word >> UInt64(60 - 4 * (digit % 16)) & 0xF)]
                        digit += 1
                    }
                    n += 1
                }
                if spelling.braces { out[n] = UInt8(ascii: "}"); n += 1 }
                return n
            }
        }
    }
}
