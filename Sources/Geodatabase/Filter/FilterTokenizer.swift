/// One token of a filter, with where it starts.
struct FilterToken: Sendable, Hashable {
    enum Kind: Sendable, Hashable {
        /// A bare word: a keyword or a column name.
        case word
        /// A column name in double quotes; `value` has the quotes removed and `""` undone.
        case quotedName
        /// A text literal in single quotes; `value` has the quotes removed and `''` undone.
        case text
        case integer, real
        /// An operator or punctuation: `=`, `<>`, `!=`, `<`, `<=`, `>`, `>=`, `(`, `)`, `,`, `-`.
        case symbol
        case end
    }

    var kind: Kind
    var value: String
    /// As written, for messages.
    var written: String
    /// 1-based position, in Unicode scalars.
    var position: Int

    /// True for the keyword `name` (given in upper case), in any case of its ASCII letters
    /// (as SQLite: `ın`, with a dotless i, is a name, not `IN`).
    func isKeyword(_ name: String) -> Bool {
        kind == .word && asciiUppercased == name
    }

    /// The word with its ASCII letters in upper case, and only those.
    var asciiUppercased: String {
        String(String.UnicodeScalarView(value.unicodeScalars.map { scalar in
            ("a"..."z").contains(scalar) ? Unicode.Scalar(scalar.value - 32) ?? scalar : scalar
        }))
    }
}

/// Splits a filter into tokens on demand, so that the first fault in reading order is the
/// one reported. Refuses on the spot what no token of the grammar starts with (`;`, comments,
/// `||`, `[`, backquotes, `?`...), naming it.
///
/// It reads Unicode scalars, not characters: a quote followed by a combining mark is one
/// character to Swift but a quote to SQLite, and text must end where SQLite would end it.
struct FilterTokenizer: Sendable {
    private let characters: [Unicode.Scalar]
    private var index = 0

    init(_ text: String) {
        characters = Array(text.unicodeScalars)
    }

    private static let symbols = ["<=", ">=", "<>", "!=", "==", "=", "<", ">", "(", ")", ",", "-"]

    /// The next token, `.end` once the text is used up.
    /// - Throws: ``FilterSyntaxError`` naming a character or run that starts no token.
    mutating func next() throws(FilterSyntaxError) -> FilterToken {
        while index < characters.count, characters[index].properties.isWhitespace { index += 1 }
        let start = index
        let position = start + 1
        guard index < characters.count else { return FilterToken(kind: .end, value: "", written: "", position: position) }
        let ch = characters[index]
        if ch == "'" || ch == "\"" {
            let value = try quoted(by: ch)
            let written = Self.string(characters[start..<index])
            return FilterToken(kind: ch == "'" ? .text : .quotedName, value: value, written: written, position: position)
        }
        if Self.isDigit(ch) || (ch == "." && index + 1 < characters.count && Self.isDigit(characters[index + 1])) {
            return try number()
        }
        if Self.isWordStart(ch) {
            while index < characters.count, Self.isWordCharacter(characters[index]) { index += 1 }
            let word = Self.string(characters[start..<index])
            return FilterToken(kind: .word, value: word, written: word, position: position)
        }
        if let refused = refusedRun() { throw refused }
        for symbol in Self.symbols where starts(with: symbol) {
            index += symbol.count
            return FilterToken(kind: .symbol, value: symbol, written: symbol, position: position)
        }
        throw FilterSyntaxError(token: Self.printable(ch), position: position)
    }

    private static func isDigit(_ ch: Unicode.Scalar) -> Bool {
        ("0"..."9").contains(ch)
    }

    /// A bare name starts with a letter (of any script) or `_`, and goes on with those, digits
    /// and combining marks, as SQLite takes in a bare name.
    private static func isWordStart(_ ch: Unicode.Scalar) -> Bool {
        ch == "_" || ch.properties.isAlphabetic
    }

    private static func isWordCharacter(_ ch: Unicode.Scalar) -> Bool {
        switch ch.properties.generalCategory {
        case .nonspacingMark, .spacingMark, .enclosingMark, .decimalNumber: return true
        default: return isWordStart(ch)
        }
    }

    private static func string(_ scalars: ArraySlice<Unicode.Scalar>) -> String {
        var text = String.UnicodeScalarView()
        text.append(contentsOf: scalars)
        return String(text)
    }

    private func starts(with text: String) -> Bool {
        let scalars = Array(text.unicodeScalars)
        let end = index + scalars.count
        return end <= characters.count && Array(characters[index..<end]) == scalars
    }

    /// The runs refused with a reason: what would end the expression or hide text after it.
    private func refusedRun() -> FilterSyntaxError? {
        let position = index + 1
        if starts(with: "--") || starts(with: "/*") {
            return FilterSyntaxError(token: starts(with: "--") ? "--" : "/*", position: position,
                                     reason: "comments are not allowed")
        }
        if starts(with: ";") { return FilterSyntaxError(token: ";", position: position, reason: "one expression only") }
        if starts(with: "||") { return FilterSyntaxError(token: "||", position: position, reason: "use OR") }
        return nil
    }

    /// A quoted run from `index` (on the opening quote) past its closing quote; a doubled
    /// quote stands for one.
    private mutating func quoted(by quote: Unicode.Scalar) throws(FilterSyntaxError) -> String {
        let start = index
        var value = String.UnicodeScalarView()
        index += 1
        while index < characters.count {
            let ch = characters[index]
            index += 1
            if ch == quote {
                guard index < characters.count, characters[index] == quote else { return String(value) }
                index += 1
            } else if ch == "\0" {
                throw FilterSyntaxError(token: "U+0000", position: index, reason: "text cannot hold a NUL character")
            }
            value.append(ch)
        }
        let opening = Self.string(characters[start..<min(characters.count, start + 12)])
        throw FilterSyntaxError(token: opening + (characters.count > start + 12 ? "..." : ""), position: start + 1,
                                reason: quote == "'" ? "the text is not closed with '" : "the name is not closed with \"")
    }

    /// An integer (`42`) or a decimal (`4.2`, `.5`, `1e-3`); a run of letters or dots
    /// straight after it (`0x1F`, `3km`, `1.2.3`) is refused whole.
    private mutating func number() throws(FilterSyntaxError) -> FilterToken {
        let start = index
        var isReal = false
        func digits() { while index < characters.count, Self.isDigit(characters[index]) { index += 1 } }
        digits()
        if index < characters.count, characters[index] == "." { isReal = true; index += 1; digits() }
        if index < characters.count, characters[index] == "e" || characters[index] == "E" {
            let mark = index
            index += 1
            if index < characters.count, characters[index] == "+" || characters[index] == "-" { index += 1 }
            let exponentStart = index
            digits()
            if index == exponentStart { index = mark } else { isReal = true }
        }
        if index < characters.count, Self.isWordCharacter(characters[index]) || characters[index] == "." {
            while index < characters.count, Self.isWordCharacter(characters[index]) || characters[index] == "." { index += 1 }
            throw FilterSyntaxError(token: Self.string(characters[start..<index]), position: start + 1, reason: "not a number")
        }
        let written = Self.string(characters[start..<index])
        return FilterToken(kind: isReal ? .real : .integer, value: written, written: written, position: start + 1)
    }

    /// A character as a message can show it: control characters and combining marks (which
    /// would join the quote around them) as `U+XXXX`.
    private static func printable(_ ch: Unicode.Scalar) -> String {
        switch ch.properties.generalCategory {
        case .control, .format, .nonspacingMark, .spacingMark, .enclosingMark: break
        default: return String(ch)
        }
        let hex = String(ch.value, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }
}
