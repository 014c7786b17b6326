import Diagnostics

/// The Geodatabase module's one error type: problems with a GeoPackage's content or with what
/// a caller asked of it, in words a person can act on (the file, the table, the column).
///
/// Failures of SQLite itself (I/O, a busy database, a constraint a statement broke) keep their
/// own type, `SQLiteError`, and pass through unchanged: they are the library's, not the input's.
public typealias GeodatabaseError = KindedError<GeodatabaseErrorKind>

/// The kinds of ``GeodatabaseError``.
public enum GeodatabaseErrorKind: Sendable, Hashable {
    /// The file is missing, is not SQLite, or lacks the GeoPackage core tables.
    case notAGeoPackage
    /// A table the caller named does not exist, or is not a feature or attribute table.
    case unknownTable
    /// A column the caller named does not exist in its table.
    case unknownColumn
    /// The GeoPackage's own content breaks a rule we rely on (a `globalid` column that is
    /// not text, duplicate global ids, a table without an integer primary key...).
    case invalidContent
    /// An argument that makes no sense (an unknown cardinality, an empty name...).
    case invalidArgument
    /// A `--where` filter refused: outside the grammar, naming a column its layer lacks, or,
    /// stored from before the grammar, more than a read-only expression on its own table.
    case filter
    /// The database is not sync-enabled (no `pkgbuild_` tables), or a table in it is not
    /// tracked.
    case notEnabled
    /// A replica id or relationship name that is not registered.
    case notRegistered
}
