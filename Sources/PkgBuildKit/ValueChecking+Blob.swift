/// BLOB values given as text, the two ways a command line can: SQL's hex literal, or a file
/// whose bytes are the value (a photo, a scanned form).
import Foundation
import Geodatabase

extension ValueChecker {
    /// `x'89504E47'` (any case, an even number of hex digits) or `@path` (the file's bytes).
    /// - Throws: ``PackageError`` (`wrongType`) naming the field and what is wrong with the text.
    func parseBlob(_ text: String, for field: FieldInfo) throws -> FieldValue {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if trimmed.hasPrefix("@") {
            let path = String(trimmed.dropFirst())
            guard let data = FileManager.default.contents(atPath: path) else {
                throw wrongType(field, .blob, "cannot read the file \(path) (@FILE gives a file's bytes)")
            }
            return .blob(Array(data))
        }
        if let bytes = Self.hexLiteral(trimmed) { return .blob(bytes) }
        throw wrongType(field, .blob, "'\(Self.abbreviated(text))' is neither x'HEX' (an even number of hex digits) nor @FILE")
    }

    /// The bytes of `x'0A1B'` / `X'0a1b'`; nil for anything else.
    static func hexLiteral(_ text: String) -> [UInt8]? {
        guard text.count >= 3, text.first == "x" || text.first == "X", text.dropFirst().first == "'", text.last == "'" else {
            return nil
        }
        let digits = Array(text.dropFirst(2).dropLast().utf8)
        guard digits.count % 2 == 0 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(digits.count / 2)
        for index in stride(from: 0, to: digits.count, by: 2) {
            guard let high = hexValue(digits[index]), let low = hexValue(digits[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
        }
        return bytes
    }

    private static func hexValue(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    private static func abbreviated(_ text: String) -> String {
        text.count > 40 ? String(text.prefix(37)) + "..." : text
    }
}
