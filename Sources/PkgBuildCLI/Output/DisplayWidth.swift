/// The columns text takes on a terminal, as `wcswidth` counts them: combining marks and other
/// zero-width characters take none, East Asian wide and fullwidth characters and emoji take
/// two, the rest one. Neither bytes nor characters are it: "東京" is 6 bytes, 2 characters
/// and 4 columns; a decomposed "é" is 3 bytes, 2 scalars and 1 column.
extension String {
    var displayWidth: Int {
        // Printable ASCII takes a column a byte (a report's table measures every cell).
        if utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return utf8.count }
        return unicodeScalars.reduce(0) { $0 + $1.displayWidth }
    }
}

extension Unicode.Scalar {
    var displayWidth: Int {
        let v = value
        if v == 0 { return 0 }
        if v < 0x20 || (v >= 0x7F && v < 0xA0) { return 0 }
        if v == 0xAD { return 1 }  // the soft hyphen is printed (wcwidth's convention)
        switch properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format: return 0
        default: break
        }
        // Hangul medial vowels and final consonants join the syllable before them.
        if (0x1160...0x11FF).contains(v) || v == 0x200B { return 0 }
        if Self.isWide(v) || properties.isEmojiPresentation { return 2 }
        return 1
    }

    /// East Asian Wide (W) and Fullwidth (F) blocks (Markus Kuhn's wcwidth table).
    private static func isWide(_ v: UInt32) -> Bool {
        guard v >= 0x1100 else { return false }
        return v <= 0x115F || v == 0x2329 || v == 0x232A
            || (0x2E80...0xA4CF).contains(v) && v != 0x303F
            || (0xAC00...0xD7A3).contains(v) || (0xF900...0xFAFF).contains(v)
            || (0xFE10...0xFE19).contains(v) || (0xFE30...0xFE6F).contains(v)
            || (0xFF00...0xFF60).contains(v) || (0xFFE0...0xFFE6).contains(v)
            || (0x20000...0x2FFFD).contains(v) || (0x30000...0x3FFFD).contains(v)
    }
}
