/// What a `CREATE TABLE` statement declares that `PRAGMA table_info`, `index_list` and
/// `foreign_key_list` do not report: CHECK constraints, column collations, AUTOINCREMENT.
import Foundation

extension CreateTableSQL {
    /// The statement's constraints beyond the pragmas'.
    struct Constraints: Equatable {
        /// Every CHECK expression, the table's and the columns', in statement order.
        var checks: [String] = []
        /// The collation named for a column, by the column's name as written.
        var collations: [String: String] = [:]
        var autoincrement = false
    }

    /// The constraints of `sql`, read from its top-level definitions (what sits inside a
    /// quoted name, a literal or a nested parenthesis is never taken for one).
    static func constraints(in sql: String) -> Constraints {
        var result = Constraints()
        for definition in definitions(tokenize(sql)) {
            guard let first = definition.first else { continue }
            let keyword = first.text.uppercased()
            let column = ["CONSTRAINT", "PRIMARY", "UNIQUE", "CHECK", "FOREIGN"].contains(keyword) && first.isWord
                && !"\"`[".contains(first.text.first ?? " ") ? nil : unquoted(first.text)
            var i = 0
            while i < definition.count {
                let word = definition[i].isWord ? definition[i].text.uppercased() : ""
                if word == "CHECK", let (expression, end) = parenthesized(definition, from: i + 1, in: sql) {
                    result.checks.append(expression)
                    i = end
                } else if word == "COLLATE", let column, i + 1 < definition.count {
                    result.collations[column] = unquoted(definition[i + 1].text)
                } else if word == "AUTOINCREMENT" {
                    result.autoincrement = true
                }
                i += 1
            }
        }
        return result
    }

    /// The top-level definitions between the statement's outer parentheses, split at their
    /// commas (nested parentheses stay within their definition).
    private static func definitions(_ tokens: [Token]) -> [[Token]] {
        var definitions: [[Token]] = []
        var current: [Token] = []
        var depth = 0
        for token in tokens {
            switch token.text {
            case "(" where !token.isWord:
                depth += 1
                if depth == 1 { continue }
            case ")" where !token.isWord:
                depth -= 1
                if depth == 0 {
                    definitions.append(current)
                    return definitions
                }
            case "," where depth == 1 && !token.isWord:
                definitions.append(current)
                current = []
                continue
            default: break
            }
            if depth >= 1 { current.append(token) }
        }
        return definitions
    }

    /// The text inside the parenthesis opening at `tokens[start]`, and the index of its close.
    private static func parenthesized(_ tokens: [Token], from start: Int, in sql: String) -> (String, Int)? {
        guard start < tokens.count, tokens[start].text == "(", !tokens[start].isWord else { return nil }
        var depth = 0
        for j in start..<tokens.count where !tokens[j].isWord {
            if tokens[j].text == "(" { depth += 1 }
            if tokens[j].text == ")" {
                depth -= 1
                if depth == 0 {
                    let text = sql[tokens[start].range.upperBound..<tokens[j].range.lowerBound]
                    return (text.trimmingCharacters(in: .whitespacesAndNewlines), j)
                }
            }
        }
        return nil
    }
}
