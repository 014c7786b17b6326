import Foundation
import SQLite

/// A `--where 'LAYER:expression'` filter. `create` parses it in the grammar
/// (``parsed(columns:)``); a stored one from before the grammar is checked here before use:
/// the expression may only read the layer's own table. Anything else (a second statement,
/// writes, other tables, `load_extension`, `ATTACH`, pragmas) is refused with an error naming
/// the expression.
public struct WhereFilter: Sendable, Hashable {
    public var layer: String
    public var expression: String

    public init(layer: String, expression: String) {
        self.layer = layer
        self.expression = expression
    }

    /// Parses `LAYER:expression`.
    /// - Throws: ``GeodatabaseError`` (`filter`) when there is no layer or no expression.
    public init(parsing argument: String) throws {
        guard let colon = argument.firstIndex(of: ":") else {
            throw GeodatabaseError(.filter,
                "--where '\(argument)': expected LAYER:EXPRESSION, e.g. 'parks:unit_type = ''National Park'''")
        }
        let layer = argument[..<colon].trimmingCharacters(in: .whitespaces)
        let expression = argument[argument.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        guard !layer.isEmpty, !expression.isEmpty else {
            throw GeodatabaseError(.filter,
                "--where '\(argument)': expected LAYER:EXPRESSION with both parts non-empty")
        }
        self.init(layer: layer, expression: expression)
    }

    /// The SQL functions an expression may never call, whatever the build of SQLite offers.
    static let forbiddenFunctions: Set<String> = [
        "load_extension", "readfile", "writefile", "edit", "fts3_tokenizer", "sqlite_compileoption_get",
    ]

    /// Checks the expression against the layer's table on `connection` (the source).
    ///
    /// The expression must be a sealed unit (balanced parentheses, no comments, no `;`
    /// outside a string), so that `(expression)` inside a larger query means what it meant
    /// alone; it is then compiled alone with an authorizer that allows only reads of
    /// `table`, and the statement must be read-only.
    /// - Throws: ``GeodatabaseError`` (`filter`) naming the expression and why.
    public func check(on connection: Connection, table: String) throws {
        let refused = { (why: String) in
            GeodatabaseError(.filter, "--where '\(layer):\(expression)' refused: \(why)")
        }
        try Self.checkLexically(expression).map { throw refused($0) }

        var violation: String?
        let own = SQLName(table)
        connection.setAuthorizer { request in
            let decision: AuthorizerDecision
            switch request.action {
            case .select:
                decision = .allow
            case .read(let t, _):
                decision = SQLName(t) == own && (request.database ?? "main") == "main" ? .allow : .deny
                if decision == .deny { violation = violation ?? "it reads table \(t), not only \(table)" }
            case .function(let name):
                decision = Self.forbiddenFunctions.contains(name.lowercased()) ? .deny : .allow
                if decision == .deny { violation = violation ?? "it calls \(name)()" }
            case .attach: violation = violation ?? "it attaches a database"; decision = .deny
            case .pragma(let name, _): violation = violation ?? "it runs pragma \(name)"; decision = .deny
            case .insert, .update, .delete: violation = violation ?? "it writes"; decision = .deny
            default:
                violation = violation ?? "it does more than read \(table)"
                decision = .deny
            }
            return decision
        }
        defer { connection.setAuthorizer(nil) }
        let sql = "SELECT 1 FROM \(SQL.identifier(table)) WHERE (\(expression))"
        let statement: Statement
        do {
            statement = try connection.prepare(sql)
        } catch let error as SQLiteError {
            if let violation { throw refused(violation) }
            throw refused(error.message)
        }
        guard statement.isReadOnly else { throw refused("it is not read-only") }
    }

    /// Refuses what would let the expression escape its parentheses or hide text: a `;`,
    /// a comment, unbalanced parentheses or an unterminated quote. Nil when fine.
    static func checkLexically(_ expression: String) -> String? {
        var depth = 0
        var quote: Unicode.Scalar?
        var previous: Unicode.Scalar?
        // By scalar, as SQLite reads it: a quote and a combining mark are one Character.
        for ch in expression.unicodeScalars {
            if let q = quote {
                if ch == q { quote = nil }
                previous = ch
                continue
            }
            switch ch {
            case "'", "\"", "`": quote = ch
            case "[": quote = "]"
            case "(": depth += 1
            case ")":
                depth -= 1
                if depth < 0 { return "unbalanced parentheses" }
            case ";": return "';' is not allowed (one expression only)"
            case "-" where previous == "-", "*" where previous == "/":
                return "comments are not allowed"
            default: break
            }
            previous = ch
        }
        if quote != nil { return "unterminated quote" }
        if depth != 0 { return "unbalanced parentheses" }
        return nil
    }
}
