/// A `--where` filter as a value: the grammar every source driver understands, so that a
/// filter crosses the seam as this tree and each driver renders it in its own dialect (never
/// as one database's SQL text).
///
/// The grammar (keywords in any letter case):
///
///     expression := term { OR term }
///     term       := factor { AND factor }
///     factor     := NOT factor | '(' expression ')' | predicate
///     predicate  := operand ( ( = | <> | != | < | <= | > | >= ) operand
///                           | [NOT] IN '(' operand { , operand } ')'
///                           | [NOT] BETWEEN operand AND operand
///                           | [NOT] LIKE operand
///                           | IS [NOT] NULL )
///     operand    := column | 'text' | number | -number
///
/// A column is a name of the layer's, bare (letters, digits, `_`) or in double quotes
/// (`"unit type"`, `""` for a quote inside); text is in single quotes (`'O''Brien'`); a number
/// is an integer or a decimal with an optional exponent. `LIKE` matches `%` (any run) and `_`
/// (one character) with no escape character, ignoring the case of ASCII letters as SQLite does.
public indirect enum FilterExpression: Sendable, Hashable {
    case comparison(FilterOperand, FilterComparison, FilterOperand)
    case inList(FilterOperand, [FilterOperand], negated: Bool)
    case between(FilterOperand, low: FilterOperand, high: FilterOperand, negated: Bool)
    case like(FilterOperand, pattern: FilterOperand, negated: Bool)
    case isNull(FilterOperand, negated: Bool)
    case not(FilterExpression)
    /// Two or more parts, in order. A chain is one list, not nested pairs, so that a long one
    /// is not a deep tree; a part is itself an `and` only when written in parentheses.
    case and([FilterExpression])
    /// Two or more parts, in order, as `and`.
    case or([FilterExpression])

    /// The columns the expression reads, in the layer's spelling, each once, in order of use.
    public var columns: [String] {
        var names: [String] = []
        func note(_ operands: [FilterOperand]) {
            for case .column(let name) in operands where !names.contains(name) { names.append(name) }
        }
        func walk(_ e: FilterExpression) {
            switch e {
            case .comparison(let l, _, let r): note([l, r])
            case .inList(let x, let list, _): note([x] + list)
            case .between(let x, let low, let high, _): note([x, low, high])
            case .like(let x, let pattern, _): note([x, pattern])
            case .isNull(let x, _): note([x])
            case .not(let inner): walk(inner)
            case .and(let parts), .or(let parts): parts.forEach(walk)
            }
        }
        walk(self)
        return names
    }
}

/// One side of a predicate: a column of the layer or a literal.
public enum FilterOperand: Sendable, Hashable {
    /// A column, spelled as the layer spells it (whatever case the filter used).
    case column(String)
    case text(String)
    case integer(Int64)
    /// Always finite.
    case real(Double)
}

/// The comparison operators; `!=` is read as ``notEqual``.
public enum FilterComparison: String, Sendable, Hashable, CaseIterable {
    case equal = "=", notEqual = "<>", less = "<", lessOrEqual = "<=", greater = ">", greaterOrEqual = ">="
}
