import Diagnostics

/// The TilePackage module's one error type: what went wrong with tiles, in words a person
/// can act on.
public typealias TilePackageError = KindedError<TilePackageErrorKind>

/// The kinds of ``TilePackageError``.
public enum TilePackageErrorKind: Sendable, Hashable {
    /// The caller's input is wrong: a zoom range, a file that is not MBTiles, a bad
    /// template, more tiles than allowed.
    case invalidInput
    /// Reading or writing a tile file failed.
    case io
    /// Tiles could not be fetched after all retries; the work in progress is kept.
    case incomplete
}
