/// One row written at a source during an upload, and what the source said.
import Geodatabase
import Geometry

/// A write of one row, addressed by global id.
public enum SourceWrite: Sendable, Hashable {
    /// A new row with the columns it names (the global id among them; never the key, which
    /// each database numbers itself).
    case insert(SourceRow)
    /// Sets the columns the row names in the row of that global id.
    case update(globalID: String, SourceRow)
    case delete(globalID: String)
}

/// What the source did with one write.
public enum SourceWriteOutcome: Sendable, Hashable {
    /// Written; `found` is false for an update or delete of a global id the source lacks.
    case applied(found: Bool)
    /// Not written, and nothing of it stays; the transaction goes on.
    case refused(SourceRefusal)
}

/// Why a source refused one row.
public struct SourceRefusal: Sendable, Hashable, Error {
    /// The unique columns whose value another row holds; nil for any other refusal (NOT NULL,
    /// CHECK, a foreign key, a value the backend cannot store).
    public var uniqueColumns: [String]?
    /// The source's own words.
    public var message: String

    public init(uniqueColumns: [String]? = nil, message: String) {
        (self.uniqueColumns, self.message) = (uniqueColumns, message)
    }

    public var isUniqueViolation: Bool { uniqueColumns != nil }
}

/// A change the source's log holds: the table and global id of a row some writer changed
/// (the row is read afresh, so what changed is not needed).
public struct SourceRowChange: Sendable, Hashable {
    public var table: String
    public var globalID: String

    public init(table: String, globalID: String) {
        (self.table, self.globalID) = (table, globalID)
    }
}

/// Where a package's downloads have read a source's changes up to.
///
/// `cursor` is opaque to sync: the driver writes it and reads it back (an integer generation
/// for a GeoPackage, a snapshot for a database whose write order is not its commit order).
/// `generation` is the number the replica registry records, which only grows: how a package
/// from a restored source is known.
public struct SourcePosition: Sendable, Hashable {
    public var cursor: String
    public var generation: Int64

    public init(cursor: String, generation: Int64) {
        (self.cursor, self.generation) = (cursor, generation)
    }
}

/// What a transaction at the source is for.
public enum SourceTransaction: Sendable, Hashable {
    /// An upload and the sync's record: writes, and locks what it needs up front.
    case write
    /// A download: one consistent state of the source, read only.
    case read
}

/// A layer's `--where`, as the source registered it.
public struct LayerFilter: Sendable, Hashable {
    /// The text the user gave.
    public var text: String
    /// Its parse in the `--where` grammar; nil for a filter older than the grammar, which a
    /// driver may run as text only if its own checks let it through.
    public var expression: FilterExpression?

    public init(text: String, expression: FilterExpression?) {
        (self.text, self.expression) = (text, expression)
    }
}
