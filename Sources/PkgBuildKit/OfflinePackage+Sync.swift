/// Sync from an app: the Sync module's session, run on this package while no edit of this
/// object can slip in, its failures turned into ``PackageError``.
import Foundation
import PackageFormat
import SourceDrivers
import Sync

/// Which way changes travel (`bidirectional`, `upload`, `download`).
public typealias SyncDirection = Sync.SyncDirection
/// How conflicts are settled (`fail`, `sourceWins`, `packageWins`).
public typealias ConflictPolicy = Sync.ConflictPolicy
/// What a sync did: rows uploaded and downloaded, conflicts, what stays pending.
public typealias SyncReport = Sync.SyncReport
/// One conflict of a sync's report, as the package records it (its kind, values and outcome).
public typealias Conflict = PackageFormat.Conflict
/// The source drivers an app links: register each once before the first sync
/// (`SourceRegistry.register(GeoPackageSourceDriver())`, from the `GeoPackageSource` library).
public typealias SourceRegistry = SourceDrivers.SourceRegistry

extension OfflinePackage {
    /// Sends the package's edits to its source and brings the source's changes down, in the
    /// Sync module's atomic, retry-safe protocol.
    ///
    /// Conflicts are not errors: under the `fail` policy the report's status is
    /// `stoppedOnConflicts`: no row changed on either side, and the conflicts are recorded in
    /// the package (`report.hasUnresolved`).
    /// - Parameters:
    ///   - source: the source geodatabase; nil for the one the package's manifest names.
    ///   - direction: `bidirectional` by default.
    ///   - policy: how conflicts are settled; `fail` by default.
    ///   - dryRun: work everything out and report it, changing nothing.
    /// - Throws: ``PackageError`` (`sync`) when the package or source cannot sync (missing,
    ///   unregistered, schema changed, no registered driver takes its address); `storage` for
    ///   failures underneath.
    @discardableResult
    public func sync(source: String? = nil, direction: SyncDirection = .bidirectional, policy: ConflictPolicy = .fail,
                     dryRun: Bool = false) throws(PackageError) -> SyncReport {
        let options = SyncOptions(source: source, direction: direction, policy: policy, dryRun: dryRun)
        return try locked { _ in
            do {
                return try SyncSession(package: url, options: options).run()
            } catch let error as SyncError {
                throw PackageError(.sync, error.message)
            } catch let error as PackageFormatError {
                throw PackageError(.sync, error.message)
            }
        }
    }
}
