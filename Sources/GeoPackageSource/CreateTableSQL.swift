/// Reading a GeoPackage table's `CREATE TABLE` statement where SQLite's pragmas say nothing
/// (its CHECK constraints, collations, AUTOINCREMENT: see `CreateTableSQL+Constraints.swift`),
/// and changing one column's declared type in it (a `POLYGON` column made `MULTIPOLYGON`,
/// which GeoPackage requires its SQL type to say too: requirement 31).
import Geodatabase

enum CreateTableSQL {
    /// The statement with `column`'s type name replaced by `type`, or nil when the column's
    /// definition is not found with a type name directly after its name.
    static func retyping(column: String, to type: String, in sql: String) -> String? {
        let tokens = tokenize(sql)
        var depth = 0
        var expectName = false
        for (i, token) in tokens.enumerated() {
            switch token.text {
            case "(":
                depth += 1
                if depth == 1 { expectName = true }
                continue
            case ")": depth -= 1; continue
            case "," where depth == 1: expectName = true; continue
            default: break
            }
            guard depth == 1, expectName, token.isWord else { continue }
            expectName = false
            guard SQLName(unquoted(token.text)) == SQLName(column),
                  i + 1 < tokens.count, case let next = tokens[i + 1], next.isWord,
                  let first = next.text.first, first.isLetter || first == "_" else { continue }
            return String(sql[..<next.range.lowerBound]) + type + String(sql[next.range.upperBound...])
        }
        return nil
    }

    struct Token {
        var text: String
        var range: Range<String.Index>
        /// A name or keyword (quoted or bare), not punctuation or a literal.
        var isWord: Bool
    }

    /// SQLite's lexical units, as far as finding column definitions needs: quoted names,
    /// string literals and comments are single tokens, so no comma or parenthesis inside
    /// them is taken for structure. Whitespace and comments are dropped.
    static func tokenize(_ sql: String) -> [Token] {
        var tokens: [Token] = []
        var i = sql.startIndex
        func advance(to end: String.Index, word: Bool) {
            tokens.append(Token(text: String(sql[i..<end]), range: i..<end, isWord: word))
            i = end
        }
        while i < sql.endIndex {
            let c = sql[i]
            let rest = sql[i...]
            if c.isWhitespace {
                i = sql.index(after: i)
            } else if rest.hasPrefix("--") {
                i = rest.firstIndex(of: "\n") ?? sql.endIndex
            } else if rest.hasPrefix("/*") {
                i = rest.range(of: "*/")?.upperBound ?? sql.endIndex
            } else if let close = ["\"": "\"", "`": "`", "[": "]", "'": "'"][c] {
                var j = sql.index(after: i)
                while j < sql.endIndex {
                    if String(sql[j]) == close {
                        let after = sql.index(after: j)
                        // A doubled quote is the quote itself, inside.
                        if close != "]", after < sql.endIndex, String(sql[after]) == close { j = sql.index(after: after); continue }
                        j = after
                        break
                    }
                    j = sql.index(after: j)
                }
                advance(to: min(j, sql.endIndex), word: c != "'")
            } else if c.isLetter || c == "_" || c.isNumber {
                let end = rest.firstIndex { !($0.isLetter || $0.isNumber || $0 == "_" || $0 == "$") } ?? sql.endIndex
                advance(to: end, word: !c.isNumber)
            } else {
                advance(to: sql.index(after: i), word: false)
            }
        }
        return tokens
    }

    static func unquoted(_ name: String) -> String {
        guard let first = name.first, "\"`[".contains(first), name.count >= 2 else { return name }
        let inner = String(name.dropFirst().dropLast())
        return first == "[" ? inner : inner.replacingOccurrences(of: String(first) + String(first), with: String(first))
    }
}
