/// How a sync settles conflicts: a policy for those no decision covers, and the decisions
/// `resolve` recorded.
import Geodatabase
import PackageFormat

/// How a sync settles the conflicts no decision covers.
public enum ConflictPolicy: String, Sendable, Hashable, CaseIterable {
    /// Change nothing on either side (download included) and report the conflicts.
    case fail
    /// The package takes the source's row or value.
    case sourceWins = "source-wins"
    /// The source takes the package's row or value (a row the source deleted comes back).
    case packageWins = "package-wins"

    /// The side this policy picks, nil for `fail`.
    public var side: ConflictSide? {
        switch self {
        case .fail: nil
        case .sourceWins: .source
        case .packageWins: .package
        }
    }
}

/// The decisions in force for one sync, looked up by row and column.
public struct ConflictDecisions: Sendable {
    /// A decision's row and column (nil for the whole row), names compared as SQLite does.
    private struct Key: Hashable {
        var table: SQLName
        var globalID: String
        var column: SQLName?
    }

    private var byKey: [Key: ConflictSide] = [:]

    public init(_ decisions: [ConflictDecision] = []) {
        for decision in decisions {
            byKey[Self.key(decision.table, decision.globalID, decision.column)] = decision.take
        }
    }

    /// The decision for a column (a column's own first, then the row's), or for a whole-row
    /// conflict when `column` is nil.
    public func side(table: String, globalID: String, column: String?) -> ConflictSide? {
        if let column, let side = byKey[Self.key(table, globalID, column)] { return side }
        return byKey[Self.key(table, globalID, nil)]
    }

    private static func key(_ table: String, _ globalID: String, _ column: String?) -> Key {
        Key(table: SQLName(table), globalID: globalID, column: column.map { SQLName($0) })
    }
}
