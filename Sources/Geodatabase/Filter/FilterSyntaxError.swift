/// Why a filter is not in the grammar of ``FilterExpression``: the offending token as
/// written and where it starts.
public struct FilterSyntaxError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The token as written (`SELECT`, `;`, `--`), or empty at the end of the text.
    public var token: String
    /// 1-based position of the token in Unicode scalars (characters, in plain text), one past
    /// the last at the end.
    public var position: Int
    /// What is wrong, in words that finish the sentence "unexpected 'X' at N".
    public var reason: String?
    /// For a column the layer lacks (not a fault of syntax, but refused alike): the layer's
    /// columns, which the message lists.
    var unknownColumn: [String]?

    public init(token: String, position: Int, reason: String? = nil) {
        self.token = token
        self.position = position
        self.reason = reason
    }

    static func unknownColumn(_ name: String, at position: Int, columns: [String]) -> FilterSyntaxError {
        var error = FilterSyntaxError(token: name, position: position)
        error.unknownColumn = columns
        return error
    }

    public var description: String {
        if let columns = unknownColumn {
            return "unknown column '\(token)' at \(position) (the layer has \(columns.joined(separator: ", ")))"
        }
        let what = token.isEmpty ? "unexpected end of the expression at \(position)" : "unexpected '\(token)' at \(position)"
        return reason.map { "\(what) (\($0))" } ?? what
    }
}
