/// Ctrl-C during a sync: the protocol's safe points, where a sync may stop with nothing applied
/// on either side. Up to the source's commit of the upload a stop rolls both transactions back
/// and forgets the sync this run began; after it, the sync runs to its end (the caller then
/// reports the interruption), so a stop never leaves the source ahead of the package.
import PackageFormat
extension SyncRun {
    /// How many rows the upload handles between two looks at the cancellation flag.
    static let rowsBetweenChecks = 256

    /// Throws Swift's `CancellationError` once the caller asked to stop, until the source
    /// committed; never after.
    func checkCancelled() throws {
        guard !sourceCommitted else { return }
        try SyncSession.checkCancelled(options)
    }

    /// After a stop before the source committed: the pending sync this run recorded is
    /// forgotten, as a sync stopped on conflicts forgets it, so the package is as it was.
    func forgetPendingSync() throws {
        try package.withTransaction(.immediate) {
            try PackageSyncState.abandon(in: package)
            try InFlightImages.clear(tables, in: package)
        }
    }
}

extension SyncSession {
    static func checkCancelled(_ options: SyncOptions) throws {
        if options.isCancelled?() == true { throw CancellationError() }
    }
}
