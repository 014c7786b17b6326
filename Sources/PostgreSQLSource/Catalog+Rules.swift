/// A column's default and a table's CHECK constraints as the package declares them: the
/// catalog's text translated into SQLite's SQL (CatalogExpression), or nothing when it cannot
/// be said there with the same meaning.
import Foundation

/// A column default in the package's SQL.
enum CatalogDefault {
    /// The default of a column of `type` as SQLite SQL; nil for one the package cannot
    /// compute itself (a sequence's `nextval`, a new uuid: the source numbers those), or whose
    /// text would differ from the seam's form of the value (a timestamp literal).
    static func sqlite(_ expression: String, type: ColumnType) -> String? {
        let folded = expression.lowercased()
        let now: Set<String> = ["now()", "current_timestamp", "transaction_timestamp()", "statement_timestamp()",
                                "clock_timestamp()", "localtimestamp"]
        switch type {
        case .timestamptz where now.contains(folded):
            return "(strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))"
        case .timestamp where now.contains(folded):
            return "(strftime('%Y-%m-%dT%H:%M:%f', 'now'))"
        case .date where folded == "current_date":
            return "(date('now'))"
        case .timestamptz, .timestamp, .uuid, .globalID, .geometry, .bytea, .json, .jsonb, .array, .other:
            return nil
        default:
            break
        }
        // Only constants: a default naming a column or a function is not the package's to run.
        guard let tokens = CatalogExpression.tokenize(expression).flatMap(CatalogExpression.droppingCasts),
              tokens.allSatisfy(isConstant), let sql = CatalogExpression.sqlite(expression) else { return nil }
        if tokens.count == 1 || (tokens.count == 2 && tokens[0] == .symbol("-")) { return sql }
        return "(\(sql))"
    }

    private static func isConstant(_ token: CatalogExpression.Token) -> Bool {
        switch token {
        case .string, .number: true
        case .word(let word): word == "true" || word == "false" || word == "null"
        case .symbol(let symbol): ["-", "+", "(", ")"].contains(symbol)
        case .quoted: false
        }
    }
}

/// A CHECK constraint in the package's SQL.
enum CatalogCheck {
    /// `CHECK (...)` as pg_get_constraintdef prints it, as a boolean SQLite expression; nil for
    /// one it cannot translate, and for `NOT VALID` ones (rows may break them).
    /// A domain's CHECK (`value`: the column of that domain) names the column's value `VALUE`.
    static func sqlite(_ definition: String, value: String? = nil) -> String? {
        var body = Substring(definition.trimmingCharacters(in: .whitespaces))
        guard body.hasPrefix("CHECK "), !body.hasSuffix("NOT VALID") else { return nil }
        body = body.dropFirst("CHECK ".count)
        if body.hasSuffix(" NO INHERIT") { body = body.dropLast(" NO INHERIT".count) }
        return CatalogExpression.sqlite(String(body), value: value)
    }
}
