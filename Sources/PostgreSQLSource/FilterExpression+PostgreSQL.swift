/// The PostgreSQL rendering of a `--where` filter: every column a quoted identifier, every
/// text a bound parameter (never spliced into the SQL), every node in parentheses, so the text
/// means exactly the tree whatever it is put next to.
///
/// SQLite compares a column with a literal after its column's affinity; PostgreSQL types
/// both sides. So a literal facing a column goes as an untyped parameter, which PostgreSQL
/// reads as the column's type (`seen > '2026-01-01'` compares instants), except a number facing
/// a number column, which stays a numeric literal (`count = 1.5` is false, not an error).
/// `LIKE` is `ILIKE` over the text the package holds of the value, with no escape
/// character: ASCII letters match whatever their case, as in SQLite.
import Geodatabase
import PostgreSQL

extension FilterExpression {
    /// A condition for a `WHERE` clause on the layer's table; its literals are appended to
    /// `parameters` and named `$n` after those already there. `type` gives each column's type.
    func postgreSQL(type: (String) -> ColumnType?, parameters: inout [Parameter]) -> String {
        func operand(_ o: FilterOperand, facing other: [FilterOperand]) -> String {
            var columnType: ColumnType?
            for case .column(let name) in other where columnType == nil { columnType = type(name) }
            return o.postgreSQL(facing: columnType,
                         facesColumn: other.contains { if case .column = $0 { true } else { false } },
                         parameters: &parameters)
        }
        switch self {
        case .comparison(let l, let op, let r):
            return "(\(operand(l, facing: [r])) \(op.rawValue) \(operand(r, facing: [l])))"
        case .inList(let x, let list, let negated):
            let items = list.map { operand($0, facing: [x]) }.joined(separator: ", ")
            return "(\(operand(x, facing: list))\(negated ? " NOT" : "") IN (\(items)))"
        case .between(let x, let low, let high, let negated):
            return "(\(operand(x, facing: [low, high]))\(negated ? " NOT" : "") BETWEEN "
                + "\(operand(low, facing: [x])) AND \(operand(high, facing: [x])))"
        case .like(let x, let pattern, let negated):
            // A column is matched in the text the package holds of it (a timestamp in UTC, a
            // boolean as 0 or 1, a global id in braces), as SQLite matches the package's.
            func text(_ o: FilterOperand) -> String {
                guard case .column(let name) = o, let columnType = type(name) else { return operand(o, facing: []) }
                return columnType.likeText(PostgreSQLQuoting.identifier(name))
            }
            return "((\(text(x))::text)\(negated ? " NOT" : "") ILIKE (\(text(pattern))::text) ESCAPE '')"
        case .isNull(let x, let negated):
            return "(\(operand(x, facing: [])) IS \(negated ? "NOT " : "")NULL)"
        case .not(let inner):
            return "(NOT \(inner.postgreSQL(type: type, parameters: &parameters)))"
        case .and(let parts):
            return "(" + parts.map { $0.postgreSQL(type: type, parameters: &parameters) }.joined(separator: " AND ") + ")"
        case .or(let parts):
            return "(" + parts.map { $0.postgreSQL(type: type, parameters: &parameters) }.joined(separator: " OR ") + ")"
        }
    }
}

extension FilterOperand {
    /// The operand as PostgreSQL text; `column` is the type of a column it is compared with.
    func postgreSQL(facing column: ColumnType?, facesColumn: Bool, parameters: inout [Parameter]) -> String {
        func bind(_ text: String, cast: String?) -> String {
            parameters.append(.text(text))
            return "$\(parameters.count)" + (cast.map { "::\($0)" } ?? "")
        }
        switch self {
        case .column(let name):
            return PostgreSQLQuoting.identifier(name)
        case .text(let text):
            // Untyped facing a column (read as its type); text otherwise.
            return bind(text, cast: facesColumn ? nil : "text")
        case .integer(let value):
            if facesColumn && !(column?.isNumber ?? false) { return bind(String(value), cast: nil) }
            // The most negative integer's digits overflow before the sign applies.
            return value == .min ? "(\(value + 1) - 1)" : "(\(value))"
        case .real(let value):
            if facesColumn && !(column?.isNumber ?? false) { return bind(value.description, cast: nil) }
            // Swift's shortest round-trip form ("0.1", "1e-07") is a numeric literal
            // PostgreSQL reads exactly.
            return "(\(value.description))"
        }
    }
}

extension ColumnType {
    /// The column (`quoted`) as the text LIKE matches: its seam form, a boolean as 0 or 1.
    func likeText(_ quoted: String) -> String {
        switch self {
        case .boolean: "(\(quoted))::int"
        default: selectExpression(quoted)
        }
    }

    /// Whether PostgreSQL compares the column with a numeric literal.
    var isNumber: Bool {
        switch self {
        case .smallint, .integer, .bigint, .real, .double, .numeric: true
        default: false
        }
    }
}
