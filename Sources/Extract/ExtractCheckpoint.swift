/// The instants of `create` at which a test can look at, change, or stop a build (see the
/// `checkpoint` parameter of ``Extractor/create(_:toolVersion:isCancelled:checkpoint:)``).
public enum ExtractCheckpoint: String, Sendable, Hashable, CaseIterable {
    /// The read transaction over the source is open and its generation read; called on the
    /// reading worker. Edits committed to the source from here on are not in the package.
    case snapshotRead
    /// The replica is registered at the source as pending; the package is not yet renamed
    /// into place.
    case registered
    /// The package is in place; its replica is still pending.
    case renamed
}

/// A checkpoint hook's error on its way out of `create`: nothing is cleaned up behind it
/// (open transactions roll back, files and registrations stay), as after a crash.
struct CheckpointStop: Error, @unchecked Sendable {
    let underlying: any Error
}
