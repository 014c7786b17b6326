import SQLite

/// The SQLite (GeoPackage) rendering of a filter: every column a quoted identifier, every text
/// a quoted literal, every node in parentheses, so the text means exactly the tree whatever
/// it is put next to.
extension FilterExpression {
    /// A condition for a `WHERE` clause on the layer's table (unqualified column names).
    public var sqlite: String {
        switch self {
        case .comparison(let l, let op, let r): return "(\(l.sqlite) \(op.rawValue) \(r.sqlite))"
        case .inList(let x, let list, let negated):
            return "(\(x.sqlite)\(negated ? " NOT" : "") IN (\(list.map(\.sqlite).joined(separator: ", "))))"
        case .between(let x, let low, let high, let negated):
            return "(\(x.sqlite)\(negated ? " NOT" : "") BETWEEN \(low.sqlite) AND \(high.sqlite))"
        case .like(let x, let pattern, let negated):
            return "(\(x.sqlite)\(negated ? " NOT" : "") LIKE \(pattern.sqlite))"
        case .isNull(let x, let negated): return "(\(x.sqlite) IS \(negated ? "NOT " : "")NULL)"
        case .not(let inner): return "(NOT \(inner.sqlite))"
        case .and(let parts): return "(" + parts.map(\.sqlite).joined(separator: " AND ") + ")"
        case .or(let parts): return "(" + parts.map(\.sqlite).joined(separator: " OR ") + ")"
        }
    }
}

extension FilterOperand {
    /// The operand as SQLite text.
    public var sqlite: String {
        switch self {
        case .column(let name): return SQL.identifier(name)
        case .text(let text): return SQL.literal(text)
        // The most negative integer cannot be written as a literal: SQLite reads its digits
        // before the sign, and they overflow to a real.
        case .integer(let value) where value == .min: return "(\(value + 1) - 1)"
        case .integer(let value): return String(value)
        // Swift's shortest round-trip form ("0.1", "1e-07", "5.0") is one SQLite reads as a
        // real with the same value.
        case .real(let value): return value.description
        }
    }
}
