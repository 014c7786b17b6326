import Diagnostics

/// The Sync module's one error type: why a sync, a conflict listing or a changeset export could
/// not go ahead, in words a person can act on (the package, the table, the column).
///
/// Failures of SQLite (`SQLiteError`) and of the Geodatabase layer (`GeodatabaseError`) pass
/// through unchanged.
public typealias SyncError = KindedError<SyncErrorKind>

/// The kinds of ``SyncError``.
public enum SyncErrorKind: Sendable, Hashable {
    /// The package is missing, is not a package, or lacks its replica state.
    case notAPackage
    /// The source is missing, not sync-enabled, or does not know the package's replica.
    case source
    /// A synced table's columns at the source are no longer those the package was built with.
    case schemaChanged
    /// An argument that makes no sense (an unknown global id to resolve...).
    case invalidArgument
    /// A layer cannot be synced the way it was cut (a CRS the sync cannot transform...).
    case unsupportedLayer
    /// Another copy of the package synced after this one was made (`sync --reattach`).
    case staleCopy
    /// The source is older than syncs the package completed (`sync --reattach`).
    case restoredSource
    /// The package's replica was unregistered, or was never registered at this source
    /// (`sync --reattach`).
    case unregistered
}
