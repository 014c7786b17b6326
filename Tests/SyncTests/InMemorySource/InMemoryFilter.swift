/// A `--where` filter evaluated over a row's values in Swift, with SQL's three-valued logic
/// (a comparison with NULL is unknown, and a row meets a filter only when it is true), and
/// the comparison rules of SQL values: numbers as numbers, text by its bytes, NULL never equal.
import Geodatabase
import Geometry
import SourceDrivers

/// How two values of the source compare, as SQL compares them.
enum SQLValueOrder {
    /// The order of two values: negative, zero, positive; nil when either is NULL. Across
    /// kinds, numbers come before text, text before blobs (SQLite's order of storage classes).
    static func compare(_ a: SourceValue, _ b: SourceValue) -> Int? {
        switch (key(a), key(b)) {
        case (nil, _), (_, nil): return nil
        case (.number(let x)?, .number(let y)?): return x < y ? -1 : (x > y ? 1 : 0)
        case (.bytes(let rankX, let x)?, .bytes(let rankY, let y)?):
            if rankX != rankY { return rankX < rankY ? -1 : 1 }
            return x == y ? 0 : (x.lexicographicallyPrecedes(y) ? -1 : 1)
        case (.number?, .bytes?): return -1
        case (.bytes?, .number?): return 1
        }
    }

    static func equal(_ a: SourceValue, _ b: SourceValue) -> Bool? { compare(a, b).map { $0 == 0 } }

    private enum Key {
        case number(Double)
        /// Text (rank 0) or a blob (rank 1), by its bytes.
        case bytes(Int, [UInt8])
    }

    /// Integers beyond 2^53 lose precision as doubles; no test value comes near.
    private static func key(_ value: SourceValue) -> Key? {
        switch value {
        case .null: nil
        case .integer(let x): .number(Double(x))
        case .real(let x): .number(x)
        case .text(let text): .bytes(0, Array(text.utf8))
        case .textBytes(let bytes): .bytes(0, bytes)
        case .blob(let bytes): .bytes(1, bytes)
        case .geometry(let geometry): .bytes(1, geometry.wkb)
        }
    }
}

/// A filter tree evaluated over one row of a table.
struct InMemoryFilter {
    let table: SourceTable

    /// True, false, or nil for SQL's unknown.
    func evaluate(_ expression: FilterExpression, on row: [String: SourceValue]) throws -> Bool? {
        switch expression {
        case .comparison(let l, let op, let r):
            let (x, y) = try pair(l, r, row)
            return SQLValueOrder.compare(x, y).map { Self.holds(op, $0) }
        case .inList(let x, let list, let negated):
            let value = try self.value(x, row)
            var result: Bool? = false
            for item in list {
                let (a, b) = try pair(x, item, row, left: value)
                switch SQLValueOrder.equal(a, b) {
                case true?: result = true
                case nil: if result == false { result = nil }
                default: break
                }
                if result == true { break }
            }
            return negated ? result.map(!) : result
        case .between(let x, let low, let high, let negated):
            let (a, lo) = try pair(x, low, row), (b, hi) = try pair(x, high, row)
            let result = Self.and([SQLValueOrder.compare(a, lo).map { $0 >= 0 }, SQLValueOrder.compare(b, hi).map { $0 <= 0 }])
            return negated ? result.map(!) : result
        case .like(let x, let pattern, let negated):
            guard let text = Self.likeText(try value(x, row)), let pattern = Self.likeText(try value(pattern, row)) else { return nil }
            let result = Self.like(Array(text.utf8), Array(pattern.utf8))
            return negated ? !result : result
        case .isNull(let x, let negated):
            return (try value(x, row) == .null) != negated
        case .not(let inner):
            return try evaluate(inner, on: row).map(!)
        case .and(let parts):
            return Self.and(try parts.map { try evaluate($0, on: row) })
        case .or(let parts):
            return Self.and(try parts.map { try evaluate($0, on: row).map(!) }).map(!)
        }
    }

    private static func and(_ parts: [Bool?]) -> Bool? {
        if parts.contains(false) { return false }
        return parts.contains(nil) ? nil : true
    }

    private static func holds(_ op: FilterComparison, _ order: Int) -> Bool {
        switch op {
        case .equal: order == 0
        case .notEqual: order != 0
        case .less: order < 0
        case .lessOrEqual: order <= 0
        case .greater: order > 0
        case .greaterOrEqual: order >= 0
        }
    }

    /// Both sides of a comparison, a literal taken as the kind of the column it is compared
    /// with (a number compared with a text column as its text, a numeric text with a number
    /// column as the number), as SQL's column affinity takes it.
    private func pair(_ l: FilterOperand, _ r: FilterOperand, _ row: [String: SourceValue],
                      left: SourceValue? = nil) throws -> (SourceValue, SourceValue) {
        var x = try left ?? value(l, row), y = try value(r, row)
        if case .column(let name) = l, !Self.isColumn(r) { y = try Self.coerce(y, to: baseType(name)) }
        if case .column(let name) = r, !Self.isColumn(l) { x = try Self.coerce(x, to: baseType(name)) }
        return (x, y)
    }

    private static func isColumn(_ operand: FilterOperand) -> Bool {
        if case .column = operand { return true }
        return false
    }

    private func baseType(_ column: String) throws -> BaseType {
        guard let found = table.columns.first(where: { $0.name == column }) else {
            throw InMemorySourceError("filter reads column '\(column)', which table \(table.name) does not have")
        }
        return found.baseType
    }

    private static func coerce(_ value: SourceValue, to type: BaseType) throws -> SourceValue {
        switch (type, value) {
        case (.integer, .text(let text)), (.real, .text(let text)), (.boolean, .text(let text)):
            if let integer = Int64(text) { return .integer(integer) }
            return Double(text).map(SourceValue.real) ?? value
        case (.text, .integer(let x)), (.date, .integer(let x)), (.datetime, .integer(let x)): return .text(String(x))
        case (.text, .real(let x)), (.date, .real(let x)), (.datetime, .real(let x)): return .text(x.description)
        default: return value
        }
    }

    private func value(_ operand: FilterOperand, _ row: [String: SourceValue]) throws -> SourceValue {
        switch operand {
        case .column(let name):
            _ = try baseType(name)
            return row[name] ?? .null
        case .text(let text): return .text(text)
        case .integer(let x): return .integer(x)
        case .real(let x): return .real(x)
        }
    }

    /// LIKE reads numbers as their text; NULL (and a blob) stays unknown.
    private static func likeText(_ value: SourceValue) -> String? {
        switch value {
        case .text(let text): text
        case .textBytes(let bytes): String(decoding: bytes, as: UTF8.self)
        case .integer(let x): String(x)
        case .real(let x): x.description
        default: nil
        }
    }

    /// `%` any run, `_` one character, ASCII letters without case (SQLite's LIKE): by bytes,
    /// `_` taking one whole UTF-8 character.
    static func like(_ text: [UInt8], _ pattern: [UInt8]) -> Bool {
        func fold(_ b: UInt8) -> UInt8 { (65...90).contains(b) ? b + 32 : b }
        func characterLength(_ lead: UInt8) -> Int { lead < 0xC0 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4 }
        func match(_ t: Int, _ p: Int) -> Bool {
            guard p < pattern.count else { return t == text.count }
            switch pattern[p] {
            case UInt8(ascii: "%"):
                return (t...text.count).contains { match($0, p + 1) }
            case UInt8(ascii: "_"):
                guard t < text.count else { return false }
                return match(t + characterLength(text[t]), p + 1)
            default:
                return t < text.count && fold(text[t]) == fold(pattern[p]) && match(t + 1, p + 1)
            }
        }
        return match(0, 0)
    }
}
