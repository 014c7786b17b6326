/// Conflicts: what both sides did to one row (or one column of it), and how it was settled,
/// as a package records them.

/// Why a local change could not simply be applied.
public enum ConflictKind: String, Sendable, Hashable, CaseIterable {
    /// Both sides changed the column to different values (or both inserted the row differently).
    case bothChanged = "both-changed"
    /// The package updated a row the source deleted.
    case updateDelete = "update-delete"
    /// The package deleted a row the source updated.
    case deleteUpdate = "delete-update"
    /// The source refused the change (a UNIQUE, NOT NULL or CHECK constraint): it cannot be won.
    case constraint
    /// The layer is download-only (clipped): local edits to it stay pending.
    case downloadOnly = "download-only"

    /// Policies and decisions can settle it; constraint and download-only conflicts stay pending.
    public var isWinnable: Bool { self != .constraint && self != .downloadOnly }
}

/// Which side a conflict's outcome takes.
public enum ConflictSide: String, Sendable, Hashable, CaseIterable {
    case package, source
}

/// One conflict, as recorded in the package and reported.
public struct Conflict: Sendable, Hashable {
    public var table: String
    public var globalID: String
    /// The column, nil for a whole-row conflict (update against delete, a refused row).
    public var column: String?
    public var kind: ConflictKind
    /// Values as text for people (geometries as WKT, blobs as hex), nil for SQL NULL or a
    /// missing row.
    public var baseValue: String?
    public var packageValue: String?
    public var sourceValue: String?
    /// The side that won; nil while the conflict is unresolved (pending).
    public var resolution: ConflictSide?
    /// What settled it: `policy`, `decision` (a `resolve` recorded before the sync), or nil.
    public var resolvedBy: String?
    /// The source's message for a constraint conflict, the reason for a download-only one.
    public var message: String?
    /// The other rows of an exchange of unique values this one conflict stands for: their
    /// changes stay pending with this row's, and taking the source's side discards them all.
    public var otherRows: [String]

    public init(table: String, globalID: String, column: String?, kind: ConflictKind,
                baseValue: String? = nil, packageValue: String? = nil, sourceValue: String? = nil,
                resolution: ConflictSide? = nil, resolvedBy: String? = nil, message: String? = nil,
                otherRows: [String] = []) {
        self.table = table
        self.globalID = globalID
        self.column = column
        self.kind = kind
        self.baseValue = baseValue
        self.packageValue = packageValue
        self.sourceValue = sourceValue
        self.resolution = resolution
        self.resolvedBy = resolvedBy
        self.message = message
        self.otherRows = otherRows
    }

    /// Every row whose change this conflict holds back: its own and those of ``otherRows``.
    public var rows: [String] { [globalID] + otherRows }
}

/// A decision `resolve` recorded for the next sync: for a row (any column, and whole-row
/// conflicts) or one column of it.
public struct ConflictDecision: Sendable, Hashable {
    public var table: String
    public var globalID: String
    public var column: String?
    public var take: ConflictSide

    public init(table: String, globalID: String, column: String?, take: ConflictSide) {
        self.table = table
        self.globalID = globalID
        self.column = column
        self.take = take
    }
}
