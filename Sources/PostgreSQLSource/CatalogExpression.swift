/// Expressions the catalog prints (a default's `pg_get_expr`, a CHECK's
/// `pg_get_constraintdef`) translated into SQLite's SQL, the package's dialect: literals,
/// columns, comparisons, AND/OR/NOT, IS NULL, `IN` lists (PostgreSQL prints them as
/// `= ANY (ARRAY[...])`) and a few functions both databases share. Casts are dropped (SQLite's
/// column affinity does their work). Anything else is not translated: nil, and the caller
/// leaves the rule out rather than copy one that means something else in SQLite.
import Foundation

enum CatalogExpression {
    enum Token: Equatable {
        case word(String)
        case quoted(String)
        case string(String)
        case number(String)
        case symbol(String)
    }

    /// Functions SQLite has under the same name and meaning (char_length is SQLite's length).
    static let functions = ["lower": "lower", "upper": "upper", "length": "length", "char_length": "length",
                            "character_length": "length", "abs": "abs"]
    static let keywords: Set<String> = ["and", "or", "not", "is", "null", "between", "in"]
    static let symbols: Set<String> = ["(", ")", ",", "=", "<>", "!=", "<", "<=", ">", ">=", "+", "-", "*", "/", "%", "||"]
    /// Words that continue a type name after its first (`character varying`, `double
    /// precision`, `timestamp with time zone`).
    static let typeWords: Set<String> = ["varying", "precision", "with", "without", "time", "zone"]

    /// `text` in SQLite's SQL, nil when it holds anything this translation does not know.
    /// `value` is the column a domain's CHECK applies to, which it names `VALUE`.
    static func sqlite(_ text: String, value: String? = nil) -> String? {
        guard var tokens = tokenize(text).flatMap(droppingCasts).flatMap(rewritingArrays) else { return nil }
        if let value { tokens = tokens.map { $0 == .word("value") ? .quoted(value) : $0 } }
        var output = ""
        for (index, token) in tokens.enumerated() {
            let next = index + 1 < tokens.count ? tokens[index + 1] : nil
            let piece: String
            switch token {
            case .word(let word):
                if keywords.contains(word) {
                    piece = word.uppercased()
                } else if word == "true" || word == "false" {
                    piece = word == "true" ? "1" : "0"
                } else if next == .symbol("(") {
                    guard let function = functions[word] else { return nil }
                    piece = function
                } else {
                    piece = sqliteIdentifier(word)
                }
            case .quoted(let name): piece = sqliteIdentifier(name)
            case .string(let value): piece = sqliteLiteral(value)
            case .number(let digits): piece = digits
            case .symbol(let symbol):
                guard symbols.contains(symbol) else { return nil }
                piece = symbol
            }
            if !output.isEmpty && token != .symbol(")") && token != .symbol(",") && output.last != "(" { output += " " }
            output += piece
        }
        return output.isEmpty ? nil : output
    }

    /// The tokens of `text`; nil for text it cannot split (an unterminated quote, `E'...'`).
    static func tokenize(_ text: String) -> [Token]? {
        var tokens: [Token] = []
        let characters = Array(text)
        var i = 0
        func quotedRun(_ quote: Character) -> String? {
            var value = ""
            i += 1
            while i < characters.count {
                if characters[i] == quote {
                    if i + 1 < characters.count && characters[i + 1] == quote { value.append(quote); i += 2; continue }
                    i += 1
                    return value
                }
                value.append(characters[i])
                i += 1
            }
            return nil
        }
        while i < characters.count {
            let c = characters[i]
            if c.isWhitespace { i += 1; continue }
            if c == "'" {
                guard let value = quotedRun("'") else { return nil }
                tokens.append(.string(value))
            } else if c == "\"" {
                guard let value = quotedRun("\"") else { return nil }
                tokens.append(.quoted(value))
            } else if c.isNumber || (c == "." && i + 1 < characters.count && characters[i + 1].isNumber) {
                var digits = ""
                while i < characters.count, characters[i].isNumber || characters[i] == "." || characters[i] == "e"
                    || ((characters[i] == "-" || characters[i] == "+") && digits.last == "e") {
                    digits.append(characters[i]); i += 1
                }
                tokens.append(.number(digits))
            } else if c.isLetter || c == "_" {
                var word = ""
                while i < characters.count, characters[i].isLetter || characters[i].isNumber || characters[i] == "_" || characters[i] == "$" {
                    word.append(characters[i]); i += 1
                }
                // E'...' and U&'...' strings carry escapes this translation does not read.
                if i < characters.count && (characters[i] == "'" || characters[i] == "&") { return nil }
                tokens.append(.word(word.lowercased()))
            } else {
                let two = i + 1 < characters.count ? String([c, characters[i + 1]]) : ""
                if ["::", "<>", "!=", "<=", ">=", "||", "~~"].contains(two) {
                    tokens.append(.symbol(two)); i += 2
                } else {
                    tokens.append(.symbol(String(c))); i += 1
                }
            }
        }
        return tokens
    }

    /// The tokens without their casts (`::text`, `::character varying(10)`, `::text[]`).
    static func droppingCasts(_ tokens: [Token]) -> [Token]? {
        var result: [Token] = []
        var i = 0
        while i < tokens.count {
            guard tokens[i] == .symbol("::") else { result.append(tokens[i]); i += 1; continue }
            i += 1
            guard i < tokens.count, case .word = tokens[i] else {
                if i < tokens.count, case .quoted = tokens[i] { i += 1; continue }
                return nil
            }
            i += 1
            while i < tokens.count, case .word(let word) = tokens[i], typeWords.contains(word) { i += 1 }
            if i < tokens.count, tokens[i] == .symbol("(") {
                guard let close = tokens[i...].firstIndex(of: .symbol(")")) else { return nil }
                i = close + 1
            }
            while i + 1 < tokens.count, tokens[i] == .symbol("["), tokens[i + 1] == .symbol("]") { i += 2 }
        }
        return result
    }

    /// `x = ANY (ARRAY[a, b])` as `x IN (a, b)`, `x <> ALL (ARRAY[a, b])` as `x NOT IN (a, b)`
    /// (the array perhaps in extra parentheses, as PostgreSQL prints it after a cast).
    static func rewritingArrays(_ tokens: [Token]) -> [Token]? {
        var result: [Token] = []
        var i = 0
        while i < tokens.count {
            let isAny = tokens[i] == .symbol("=") && tokens[safe: i + 1] == .word("any")
            let isAll = tokens[i] == .symbol("<>") && tokens[safe: i + 1] == .word("all")
            guard isAny || isAll else {
                if tokens[i] == .word("any") || tokens[i] == .word("all") || tokens[i] == .word("array") { return nil }
                result.append(tokens[i]); i += 1
                continue
            }
            i += 2
            var opened = 0
            while tokens[safe: i] == .symbol("(") { opened += 1; i += 1 }
            guard opened >= 1, tokens[safe: i] == .word("array"), tokens[safe: i + 1] == .symbol("["),
                  let close = tokens[(i + 2)...].firstIndex(of: .symbol("]")) else { return nil }
            let items = Array(tokens[(i + 2)..<close])
            guard !items.contains(.symbol("[")) else { return nil }
            i = close + 1
            for _ in 0..<opened {
                guard tokens[safe: i] == .symbol(")") else { return nil }
                i += 1
            }
            result += (isAll ? [.word("not")] : []) + [.word("in"), .symbol("(")] + items + [.symbol(")")]
        }
        return result
    }
}

extension CatalogExpression {
    /// A name as SQLite reads it exactly: in double quotes, inner ones doubled.
    static func sqliteIdentifier(_ name: String) -> String { "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }
    /// A text literal as SQLite reads it: in single quotes, inner ones doubled.
    static func sqliteLiteral(_ text: String) -> String { "'" + text.replacingOccurrences(of: "'", with: "''") + "'" }
}

private extension Array {
    subscript(safe index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}
