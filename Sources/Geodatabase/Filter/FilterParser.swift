/// Reads a filter in the grammar of ``FilterExpression`` by recursive descent (`NOT` binds
/// tighter than `AND`, `AND` tighter than `OR`), and refuses anything else naming the first
/// token that does not fit: a function call, a sub-select, a second statement, a comment, a
/// column the layer does not have.
public struct FilterParser: Sendable {
    /// Words that start SQL the grammar does not have; bare, they are refused (not taken as a
    /// column), so `fid IN (SELECT ...)` names `SELECT`. A column of such a name is written
    /// in double quotes.
    static let reservedWords: Set<String> = [
        "SELECT", "FROM", "WHERE", "EXISTS", "CASE", "WHEN", "THEN", "ELSE", "END", "CAST", "COLLATE",
        "ESCAPE", "GLOB", "REGEXP", "MATCH", "ISNULL", "NOTNULL", "DISTINCT", "UNION", "ALL", "VALUES",
        "WITH", "RAISE", "TRUE", "FALSE", "CURRENT_DATE", "CURRENT_TIME", "CURRENT_TIMESTAMP",
        "AND", "OR", "NOT", "IN", "BETWEEN", "LIKE", "IS", "NULL",
    ]
    /// Deeper nesting is refused rather than risking the stack on hostile input.
    static let maximumDepth = 64
    /// More predicates are refused: SQLite refuses an expression deeper than 1000, and a chain
    /// of n predicates is n deep to it. A long list of values is one `IN`.
    static let maximumPredicates = 500

    private var tokenizer: FilterTokenizer
    private var current: FilterToken
    private let columns: [String]
    private var depth = 0
    private var predicates = 0

    /// Parses `text` against the layer's columns.
    /// - Parameters:
    ///   - columns: every column of the layer; names match whatever their letter case (ASCII,
    ///     as SQLite matches them), and the expression holds the layer's spelling.
    /// - Throws: ``FilterSyntaxError`` naming the token and its position.
    public static func parse(_ text: String, columns: [String]) throws(FilterSyntaxError) -> FilterExpression {
        var parser = try FilterParser(text, columns: columns)
        let expression = try parser.expression()
        guard parser.current.kind == .end else { throw parser.unexpected() }
        return expression
    }

    private init(_ text: String, columns: [String]) throws(FilterSyntaxError) {
        tokenizer = FilterTokenizer(text)
        current = try tokenizer.next()
        self.columns = columns
    }

    private mutating func advance() throws(FilterSyntaxError) {
        current = try tokenizer.next()
    }

    /// The token after `current`, without moving.
    private func peek() throws(FilterSyntaxError) -> FilterToken {
        var ahead = tokenizer
        return try ahead.next()
    }

    private func unexpected(_ reason: String? = nil) -> FilterSyntaxError {
        FilterSyntaxError(token: current.written, position: current.position, reason: reason)
    }

    private func isSymbol(_ symbol: String) -> Bool {
        current.kind == .symbol && current.value == symbol
    }

    private mutating func expect(symbol: String, _ reason: String) throws(FilterSyntaxError) {
        guard isSymbol(symbol) else { throw unexpected(reason) }
        try advance()
    }

    private mutating func expect(keyword: String, _ reason: String) throws(FilterSyntaxError) {
        guard current.isKeyword(keyword) else { throw unexpected(reason) }
        try advance()
    }

    // MARK: expression := term { OR term }; term := factor { AND factor }

    /// The chain of `OR` (level 0) or `AND` (level 1) of the next level's parts, as one list;
    /// level 2 is a factor.
    private mutating func expression(level: Int = 0) throws(FilterSyntaxError) -> FilterExpression {
        guard level < 2 else { return try factor() }
        let keyword = level == 0 ? "OR" : "AND"
        var parts = [try expression(level: level + 1)]
        while current.isKeyword(keyword) {
            try advance()
            parts.append(try expression(level: level + 1))
        }
        guard parts.count > 1 else { return parts[0] }
        return level == 0 ? .or(parts) : .and(parts)
    }

    /// factor := NOT factor | '(' expression ')' | predicate
    private mutating func factor() throws(FilterSyntaxError) -> FilterExpression {
        depth += 1
        defer { depth -= 1 }
        guard depth <= Self.maximumDepth else { throw unexpected("nested more than \(Self.maximumDepth) deep") }
        if current.isKeyword("NOT") {
            try advance()
            return .not(try factor())
        }
        if isSymbol("(") {
            try advance()
            let inner = try expression()
            try expect(symbol: ")", "expected ')'")
            return inner
        }
        return try predicate()
    }

    // MARK: predicate

    private static let comparisons: [String: FilterComparison] = [
        "=": .equal, "<>": .notEqual, "!=": .notEqual, "<": .less, "<=": .lessOrEqual, ">": .greater, ">=": .greaterOrEqual,
    ]

    private mutating func predicate() throws(FilterSyntaxError) -> FilterExpression {
        predicates += 1
        guard predicates <= Self.maximumPredicates else {
            throw unexpected("more than \(Self.maximumPredicates) comparisons; a long list of values is one IN (...)")
        }
        let subject = try operand()
        if current.kind == .symbol, let comparison = Self.comparisons[current.value] {
            try advance()
            return .comparison(subject, comparison, try operand())
        }
        if isSymbol("==") { throw unexpected("use =") }
        if current.isKeyword("IS") {
            try advance()
            let negated = current.isKeyword("NOT")
            if negated { try advance() }
            try expect(keyword: "NULL", "expected NULL after IS\(negated ? " NOT" : "")")
            return .isNull(subject, negated: negated)
        }
        let negated = current.isKeyword("NOT")
        if negated { try advance() }
        if current.isKeyword("IN") {
            try advance()
            return .inList(subject, try list(), negated: negated)
        }
        if current.isKeyword("BETWEEN") {
            try advance()
            let low = try operand()
            try expect(keyword: "AND", "expected AND after BETWEEN's first bound")
            return .between(subject, low: low, high: try operand(), negated: negated)
        }
        if current.isKeyword("LIKE") {
            try advance()
            return .like(subject, pattern: try operand(), negated: negated)
        }
        throw unexpected(negated ? "expected IN, BETWEEN or LIKE after NOT"
                         : "expected a comparison (=, <>, !=, <, <=, >, >=), IN, BETWEEN, LIKE or IS")
    }

    /// '(' operand { , operand } ')'
    private mutating func list() throws(FilterSyntaxError) -> [FilterOperand] {
        try expect(symbol: "(", "expected '(' after IN")
        var items = [try operand()]
        while isSymbol(",") {
            try advance()
            items.append(try operand())
        }
        try expect(symbol: ")", "expected ',' or ')' in the IN list")
        return items
    }

    // MARK: operand := column | 'text' | number | -number

    private mutating func operand() throws(FilterSyntaxError) -> FilterOperand {
        let token = current
        switch token.kind {
        case .text:
            try advance()
            return .text(token.value)
        case .integer, .real:
            try advance()
            return try Self.number(token, negative: false)
        case .quotedName:
            try advance()
            return .column(try column(token))
        case .word:
            if Self.reservedWords.contains(token.asciiUppercased) {
                throw unexpected(token.isKeyword("NULL") ? "use IS NULL or IS NOT NULL" : nil)
            }
            let next = try peek()
            if next.kind == .symbol, next.value == "(" {
                throw FilterSyntaxError(token: token.written + "(", position: token.position,
                                        reason: "function calls are not allowed")
            }
            try advance()
            return .column(try column(token))
        case .symbol where token.value == "-":
            try advance()
            guard current.kind == .integer || current.kind == .real else {
                throw unexpected("a minus sign only goes before a number")
            }
            let number = current
            try advance()
            return try Self.number(number, negative: true)
        case .symbol, .end:
            throw unexpected("expected a column, a text in single quotes or a number")
        }
    }

    private static func number(_ token: FilterToken, negative: Bool) throws(FilterSyntaxError) -> FilterOperand {
        let text = (negative ? "-" : "") + token.value
        if token.kind == .integer, let value = Int64(text) { return .integer(value) }
        if token.kind == .real, let value = Double(text), value.isFinite { return .real(value) }
        throw FilterSyntaxError(token: text, position: token.position, reason: "out of range")
    }

    /// The layer's spelling of the column `token` names: the same spelling first, else the
    /// one equal ignoring the case of ASCII letters.
    private func column(_ token: FilterToken) throws(FilterSyntaxError) -> String {
        if columns.contains(token.value) { return token.value }
        let folded = Self.asciiLowercased(token.value)
        if let match = columns.first(where: { Self.asciiLowercased($0) == folded }) { return match }
        throw .unknownColumn(token.written, at: token.position, columns: columns)
    }

    private static func asciiLowercased(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.map { scalar in
            (65...90).contains(scalar.value) ? Unicode.Scalar(scalar.value + 32) ?? scalar : scalar
        }))
    }
}
