/// Step 0 of a sync: the package and its source opened and checked before either is written:
/// both files exist and can be written (or a dry run works on copies), the source is
/// sync-enabled, both change logs are readable, the registry lets the package sync, and the
/// columns added at the source have come in.
import Foundation
import Geodatabase
import Geometry
import PackageFormat
import SQLite
import SourceDrivers

/// The two databases of a sync, opened and checked.
struct OpenedSync {
    /// The package directory's data file and manifest.
    let files: PackageFiles
    /// A dry run's copies of read-only files: they live until the run is over.
    let copies: DryRunCopies
    /// The package's data file (or a dry run's copy), with a sync's page cache.
    let package: GeoPackage
    /// The source, open through the driver its address chose (checked sync-enabled).
    let source: any SyncSource
    /// The source as the user or the package named it, for messages and the report.
    let sourcePath: String
    /// The package's sync state as stored, before a re-attach or the registered scope.
    let stored: PackageSyncState
    /// The package's change log (its operations checked known).
    var tracking: PackageChangeTracking { PackageChangeTracking(connection: package.connection) }
}

/// Whom the registry lets sync, and what it registered for them.
struct RegisteredStanding {
    /// The package's state with the registered area in place (and a re-attach's replica).
    let state: PackageSyncState
    let replica: Replica
    let scope: RegisteredScope
}

extension SyncSession {
    /// Opens the package and its source.
    /// - Throws: ``SyncError`` for a package or source that cannot sync.
    func open() throws -> OpenedSync {
        let files = try PackageFiles(packageURL)
        if !options.dryRun && !DryRunCopies.isWritable(files.data.path) {
            throw SyncError(.notAPackage, "\(files.data.path) is read-only (the file or its directory): a sync writes "
                + "the package; run 'pkgbuild sync --dry-run' to see what it would do")
        }
        let copies = DryRunCopies(dryRun: options.dryRun)
        let package: GeoPackage
        do {
            package = try GeoPackage(path: try copies.path(for: files.data.path, role: "package"), busyTimeout: options.busyTimeout)
        } catch let error as GeodatabaseError {
            throw SyncError(.notAPackage, error.message)
        }
        let stored = try PackageSyncState.read(package.connection)
        let sourcePath = try options.source ?? stored.source ?? files.manifest?.source.location ?? {
            throw SyncError(.source, "\(packageURL.path): no --source given and the package has no manifest naming one")
        }()
        let source: any SyncSource
        do {
            source = try options.sources.openSyncSource(sourcePath, options: SourceOpenOptions(busyTimeout: options.busyTimeout,
                                                                                              dryRun: options.dryRun))
        } catch let error as SourceError {
            throw SyncError(.source, error.message)
        }
        // The page cache of a sync: bounded, whatever the package holds (see `cacheKiB`).
        try package.connection.execute("PRAGMA cache_size = -\(Self.cacheKiB)")
        // Temporary tables and sorts on disk: their size grows with the edits, memory must not.
        try package.connection.execute("PRAGMA temp_store = FILE")
        // A change log damaged past its CHECK stops the sync before either side is written.
        let tracking = PackageChangeTracking(connection: package.connection)
        try tracking.requireKnownOperations()
        return OpenedSync(files: files, copies: copies, package: package, source: source, sourcePath: source.displayName, stored: stored)
    }

    /// The registry's word on the package: a re-attach registers it anew; otherwise the
    /// package must be current at the source.
    /// - Throws: ``SyncError`` for a stale copy, a restored source, an unregistered replica.
    func standing(of opened: OpenedSync) throws -> RegisteredStanding {
        var state = opened.stored
        if options.reattach {
            guard !options.dryRun else { throw SyncError(.invalidArgument, "--reattach cannot be a dry run: it registers a new replica") }
            state = try Reattach.registerAnew(state, package: opened.package.connection, packageName: packageURL.lastPathComponent,
                                             at: opened.source)
        } else {
            // Checked before anything is written on either side, and again in the source's
            // write transaction (another copy of the package may sync in between).
            try Self.requireStanding(state, at: opened.source, sourcePath: opened.sourcePath, package: packageURL.path,
                                     note: !options.dryRun)
        }
        guard let replica = try opened.source.replica(id: state.replicaID) else {
            throw SyncError(.unregistered, "replica \(state.replicaID) is not registered at \(opened.sourcePath)")
        }
        let scope = RegisteredScope(replica)
        return RegisteredStanding(state: scope.applied(to: state), replica: replica, scope: scope)
    }

    /// The source's change log readable for a download, and the columns added at the source
    /// brought into the package first: the schemas read next are the sync's.
    func prepareSchemas(_ opened: OpenedSync, for state: PackageSyncState) throws {
        if options.direction.downloads {
            let position = try opened.source.position(cursor: state.sourceCursor, generation: state.sourceGeneration)
            try opened.source.checkChangeLog(since: position, excludingReplica: state.replicaID,
                                             tables: try opened.tracking.trackedTables().map(\.name))
        }
        let package = opened.package.connection
        try SchemaMigration.apply(try SchemaMigration.plan(package: package, sourceTables: try opened.source.trackedTables()),
                                  package: package, source: opened.source, dryRun: options.dryRun)
    }
}
