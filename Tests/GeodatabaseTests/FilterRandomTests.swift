import Testing
import SQLite
@testable import Geodatabase

/// Seeded random filters: written out as text with as few parentheses as the precedence
/// allows (keywords and names in random letter case and quoting), they parse back to the same
/// tree, and SQLite, given that text as it is, keeps the rows the tree's rendering keeps.
@Suite struct FilterRandomTests {
    static let columns = ["fid", "name", "unit type", "score", "n"]

    @Test(arguments: [1, 2, 3, 4, 5] as [UInt64])
    func writtenOutAFilterParsesBackAndSQLiteAgrees(seed: UInt64) throws {
        var random = SplitMix64(seed: seed)
        let db = try FilterSQLiteTests().table()
        for _ in 0..<200 {
            let tree = RandomFilter.expression(depth: 4, &random)
            let text = RandomFilter.written(tree, &random)
            let parsed = try FilterParser.parse(text, columns: Self.columns)
            #expect(parsed == tree, "seed \(seed): \(text)")
            let ours = try FilterSQLiteTests().fids(db, parsed.sqlite)
            let sqlite = try FilterSQLiteTests().fids(db, "(\(text))")
            #expect(ours == sqlite, "seed \(seed): \(text) rendered \(parsed.sqlite)")
        }
    }
}

/// A small, seedable generator, so a failing seed replays.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Random trees over the columns of ``FilterSQLiteTests``' table, and a writer of the grammar
/// independent of the parser.
enum RandomFilter {
    static func operand(_ r: inout SplitMix64) -> FilterOperand {
        switch Int.random(in: 0..<6, using: &r) {
        case 0, 1: return .column(FilterRandomTests.columns.randomElement(using: &r)!)
        case 2: return .text(["Denali", "O'Brien", "denali%", "%a%", "_", "", "50%_off", "Preserve"].randomElement(using: &r)!)
        case 3: return .integer([0, 1, 2, 5, -3, 10, .min, .max].randomElement(using: &r)!)
        default: return .real([1.5, -2.5, 1e-7, 100, 0.25, -0.0].randomElement(using: &r)!)
        }
    }

    static func expression(depth: Int, _ r: inout SplitMix64) -> FilterExpression {
        let choice = depth == 0 ? Int.random(in: 0..<5, using: &r) : Int.random(in: 0..<8, using: &r)
        switch choice {
        case 0: return .comparison(operand(&r), FilterComparison.allCases.randomElement(using: &r)!, operand(&r))
        case 1: return .inList(operand(&r), (0..<Int.random(in: 1...3, using: &r)).map { _ in operand(&r) }, negated: .random(using: &r))
        case 2: return .between(operand(&r), low: operand(&r), high: operand(&r), negated: .random(using: &r))
        case 3: return .like(operand(&r), pattern: operand(&r), negated: .random(using: &r))
        case 4: return .isNull(operand(&r), negated: .random(using: &r))
        case 5: return .not(expression(depth: depth - 1, &r))
        case 6: return .and((0..<Int.random(in: 2...4, using: &r)).map { _ in expression(depth: depth - 1, &r) })
        default: return .or((0..<Int.random(in: 2...4, using: &r)).map { _ in expression(depth: depth - 1, &r) })
        }
    }

    /// Binding strength: OR 1, AND 2, NOT 3, a predicate 4.
    static func strength(_ e: FilterExpression) -> Int {
        switch e {
        case .or: return 1
        case .and: return 2
        case .not: return 3
        default: return 4
        }
    }

    static func written(_ e: FilterExpression, _ r: inout SplitMix64) -> String {
        func sub(_ inner: FilterExpression, atLeast: Int) -> String {
            let text = written(inner, &r)
            return strength(inner) < atLeast || Int.random(in: 0..<8, using: &r) == 0 ? "(\(text))" : text
        }
        func keyword(_ word: String) -> String {
            [word, word.lowercased(), word.prefix(1) + word.dropFirst().lowercased()].randomElement(using: &r)!
        }
        func not(_ negated: Bool) -> String { negated ? " " + keyword("NOT") : "" }
        func op(_ o: FilterOperand) -> String { operand(o, &r) }
        switch e {
        case .comparison(let a, let c, let b):
            let symbol = c == .notEqual && Bool.random(using: &r) ? "!=" : c.rawValue
            return "\(op(a)) \(symbol) \(op(b))"
        case .inList(let x, let list, let negated):
            return "\(op(x))\(not(negated)) \(keyword("IN")) (\(list.map { op($0) }.joined(separator: ", ")))"
        case .between(let x, let low, let high, let negated):
            return "\(op(x))\(not(negated)) \(keyword("BETWEEN")) \(op(low)) \(keyword("AND")) \(op(high))"
        case .like(let x, let pattern, let negated): return "\(op(x))\(not(negated)) \(keyword("LIKE")) \(op(pattern))"
        case .isNull(let x, let negated): return "\(op(x)) \(keyword("IS"))\(not(negated)) \(keyword("NULL"))"
        case .not(let inner): return "\(keyword("NOT")) \(sub(inner, atLeast: 3))"
        // The parser reads a chain as one list: a part of the same kind needs parentheses.
        case .and(let parts): return parts.map { sub($0, atLeast: 3) }.joined(separator: " \(keyword("AND")) ")
        case .or(let parts): return parts.map { sub($0, atLeast: 2) }.joined(separator: " \(keyword("OR")) ")
        }
    }

    static func operand(_ o: FilterOperand, _ r: inout SplitMix64) -> String {
        switch o {
        case .column(let name) where name.contains(" ") || Bool.random(using: &r):
            let spelled = Bool.random(using: &r) ? name.uppercased() : name
            return "\"" + spelled.replacingOccurrences(of: "\"", with: "\"\"") + "\""
        case .column(let name): return Bool.random(using: &r) ? name.uppercased() : name
        case .text(let text): return "'" + text.replacingOccurrences(of: "'", with: "''") + "'"
        case .integer(let value): return String(value)
        case .real(let value): return value.description
        }
    }
}
