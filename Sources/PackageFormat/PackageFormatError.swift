import Diagnostics

/// The package-format module's one error type: a package directory, its manifest or its own
/// tables that cannot be read as a package, in words that name the file and the problem.
public typealias PackageFormatError = KindedError<PackageFormatErrorKind>

/// The kinds of ``PackageFormatError``.
public enum PackageFormatErrorKind: Sendable, Hashable {
    /// The path is missing or is not a package (no data.gpkg, no manifest, no replica).
    case notAPackage
    /// A file of the package exists but cannot be read as what it should be (a manifest
    /// that is not JSON, lacks a key or is of another format version).
    case malformed
    /// A file of the package cannot be written.
    case write
    /// What was asked of the package is not in it (a basemap zoom it holds no tiles at).
    case absent
}
