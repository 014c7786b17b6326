import Diagnostics

/// The Extract module's one error type: what stopped an estimate, a build or an inspection,
/// in words a person can act on, naming the input at fault.
public typealias ExtractError = KindedError<ExtractErrorKind>

/// The kinds of ``ExtractError``.
public enum ExtractErrorKind: Sendable, Hashable {
    /// The source is missing, unreadable or not a GeoPackage.
    case source
    /// The area of interest is empty, invalid or cannot be read.
    case area
    /// A CRS the caller gave is unknown, or a transform into it failed.
    case crs
    /// A layer named by the caller does not exist, or a layer cannot be extracted.
    case layer
    /// A stored geometry cannot be decoded (names layer and fid).
    case corruptGeometry
    /// The output path is taken, or the package directory cannot be written.
    case output
    /// The replica cannot be registered at the source (a read-only source, ...).
    case registration
    /// A package to inspect is missing or malformed.
    case package
    /// The run was cancelled (Ctrl-C); the work in progress is kept for a re-run.
    case cancelled
    /// Basemap tiles could not be fetched; the work in progress (the tiles so far) is kept
    /// for a re-run, which resumes it.
    case incomplete
    /// A failure of a library below (SQLite, GEOS, PROJ, tiles) while working.
    case failure
}
