/// libpq's key=value text (`host=db dbname='my db'`): read and written by libpq's own rules,
/// so GDAL's options can be lifted out of it and the rest handed to libpq unchanged in meaning.
enum ConninfoText {
    /// The key=value pairs of `text` in order, or nil when the text breaks libpq's rules (libpq
    /// then says how, in its own words).
    static func pairs(_ text: String) -> [(key: String, value: String)]? {
        var chars = Array(text.unicodeScalars)[...]
        var result: [(key: String, value: String)] = []
        while true {
            skipSpaces(&chars)
            guard !chars.isEmpty else { return result }
            var key = ""
            while let c = chars.first, c != "=", !isSpace(c) { key.unicodeScalars.append(c); chars.removeFirst() }
            skipSpaces(&chars)
            guard chars.first == "=" else { return nil }
            chars.removeFirst()
            skipSpaces(&chars)
            guard let value = readValue(&chars) else { return nil }
            result.append((key, value))
        }
    }

    /// A value: quoted (`'my db'`, with `\'` and `\\`) or bare up to the next space (`\` escapes).
    private static func readValue(_ chars: inout ArraySlice<Unicode.Scalar>) -> String? {
        var value = ""
        let quoted = chars.first == "'"
        if quoted { chars.removeFirst() }
        while let c = chars.first {
            if !quoted && isSpace(c) { return value }
            chars.removeFirst()
            if quoted && c == "'" { return value }
            if c == "\\" {
                guard let escaped = chars.first else { return nil }
                chars.removeFirst()
                value.unicodeScalars.append(escaped)
            } else {
                value.unicodeScalars.append(c)
            }
        }
        return quoted ? nil : value
    }

    private static func isSpace(_ c: Unicode.Scalar) -> Bool {
        c == " " || c == "\t" || c == "\n" || c == "\r" || c == "\u{0B}" || c == "\u{0C}"
    }

    private static func skipSpaces(_ chars: inout ArraySlice<Unicode.Scalar>) {
        while let c = chars.first, isSpace(c) { chars.removeFirst() }
    }

    /// `value` in single quotes with `\` and `'` escaped: libpq reads it back exactly.
    static func quote(_ value: String) -> String {
        var quoted = "'"
        for c in value.unicodeScalars {
            if c == "'" || c == "\\" { quoted.unicodeScalars.append("\\") }
            quoted.unicodeScalars.append(c)
        }
        return quoted + "'"
    }

    /// `value` bare when libpq reads it back as it is, quoted otherwise.
    static func quoteIfNeeded(_ value: String) -> String {
        let plain = !value.isEmpty && value.unicodeScalars.allSatisfy { !isSpace($0) && $0 != "'" && $0 != "\\" }
        return plain ? value : quote(value)
    }

    /// key='value' text of `options`, keywords in a stable order.
    static func render(_ options: [String: String]) -> String {
        options.sorted { $0.key < $1.key }.map { "\($0.key)=\(quote($0.value))" }.joined(separator: " ")
    }

    /// Whether `text` may hold a secret libpq could quote back in a parse error: a password
    /// option, or a URI's `user:password@`.
    static func mayHoldSecret(_ text: String) -> Bool {
        let lower = text.lowercased()
        if lower.contains("password") { return true }
        guard let scheme = lower.range(of: "://") else { return false }
        let authority = lower[scheme.upperBound...].prefix { $0 != "/" && $0 != "?" }
        return authority.contains("@") && authority.split(separator: "@").first?.contains(":") == true
    }

    /// libpq's parse error with each quoted fragment of two characters or more (`after
    /// "hunter2"`) replaced by `"…"`; a single character (`missing "="`) is no secret.
    static func withoutQuotedFragments(_ message: String) -> String {
        let pieces = message.split(separator: "\"", omittingEmptySubsequences: false)
        // Odd pieces are inside quotes, an unclosed last one included.
        return pieces.enumerated().map { index, piece in
            index % 2 == 1 && piece.count > 1 ? "…" : String(piece)
        }.joined(separator: "\"")
    }
}
