/// The entry point of a sync; the protocol and its steps are `SyncRun.swift`'s.
import Foundation
import Geodatabase
import Geometry
import SQLite

/// Runs syncs of one package.
public final class SyncSession {
    public let packageURL: URL
    public let options: SyncOptions
    /// Page cache of the package during a sync, in KiB (as the GeoPackage source's: a larger
    /// one measured no faster, only bigger).
    static let cacheKiB = 6_144

    /// - Parameter package: the package directory (`AREA.pkg`), or its `data.gpkg`.
    public init(package: URL, options: SyncOptions = SyncOptions()) {
        packageURL = package
        self.options = options
    }

    /// Runs the sync.
    /// - Returns: the report; its status says whether conflicts stopped it or left rows pending.
    /// - Throws: ``SyncError`` for a package or source that cannot sync (missing, unregistered,
    ///   schema changed); `SQLiteError` / `GeodatabaseError` for failures underneath. Nothing
    ///   is half-applied on either side.
    public func run() throws -> SyncReport {
        let opened = try open()
        let standing = try standing(of: opened)
        let state = standing.state
        try Self.checkCancelled(options)
        try prepareSchemas(opened, for: state)
        let package = opened.package.connection, source = opened.source
        // Each schema read once, before any write; one GEOS and one PROJ context for the whole
        // sync, which runs on this thread.
        let setup = try SyncSetup(package: package, source: source, state: state, scope: standing.scope,
                                  manifest: opened.files.manifest)
        let run = SyncRun(session: self, package: package, source: source, state: state,
                          tables: setup.tables, relationships: setup.packageSchema.relationships, areas: setup.areas,
                          projections: setup.projections, sourcePath: opened.sourcePath, geos: setup.geos)
        if options.reattach {
            try run.markDifferencesForReattach()
            try opened.files.recordReplica(state.replicaID)
        }
        // `create` registers the replica as pending, renames the package into place, then
        // activates it; a re-attach registers it pending until the package took it. A crash
        // in between leaves a complete package whose replica is still pending; the package in
        // hand proves the build finished, so activate it.
        if standing.replica.state == .pending && !options.dryRun {
            try source.activateReplica(id: state.replicaID)
        }
        // The copies (a dry run's on read-only files) live until the run is over.
        var report = try withExtendedLifetime(opened.copies) { try run.execute() }
        report.notes += opened.copies.notes + source.notes
        if options.reattach { report.reattachedFrom = opened.stored.replicaID }
        return report
    }
}
