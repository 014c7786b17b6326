import Foundation
import Geodatabase
import Geometry
import PackageFormat
import TilePackage

/// Plans, estimates and builds offline packages.
public enum Extractor {
    /// What one layer holds after a build (or would hold, for an estimate).
    public struct LayerResult: Sendable, Hashable {
        public var name: String
        public var dataType: String
        public var geometryType: String?
        public var crs: String?
        /// Rows chosen by the area (or whole attribute tables).
        public var selected: Int
        /// Rows added because they are related to the area's rows.
        public var related: Int
        /// Features skipped for a geometry that could not be read (`--skip-invalid`).
        public var skippedInvalid: Int
        public var cut: LayerCut
        public var count: Int { selected + related }
    }

    /// The outcome of `create` or `estimate`.
    public struct Result: Sendable, Hashable {
        public var layers: [LayerResult]
        public var generation: Int64?
        public var replicaID: String?
        public var package: String?
        public var warnings: [String]
        /// Basemap tiles in the package (create), or the coverage's tile count (estimate).
        public var tiles: Int?
        /// Tiles per zoom, the zooms within `--max-tiles` and the source's byte estimate, for
        /// `estimate`.
        public var tileCounts: [TilePlan.ZoomCount] = []
        public var tileFit: TilePlan.Fit?
        public var maxTiles: Int?
        public var tileBytes: Int?
        /// What the basemap's copy did (tiles absent, failed and left out), for `create`.
        public var tileReport: TileCopyReport?
    }

    /// Counts what `create` would write, writing nothing.
    public static func estimate(_ request: ExtractRequest, isCancelled: @escaping @Sendable () -> Bool = { false },
                                progress: @escaping ExtractProgress = { _, _, _ in }) throws -> Result {
        let prepared = try prepare(request, isCancelled: isCancelled, progress: progress)
        // The tally counts what was read; the rows themselves are dropped.
        var rowsRead = 0
        let tally = try read(prepared, send: { message in
            if case .rows(_, let rows) = message { rowsRead += rows.count; progress(.features, rowsRead, 0) }
            return true
        }, isCancelled: isCancelled)
        var estimate = result(prepared, tally: tally, replicaID: nil, package: nil)
        if let basemap = prepared.basemap {
            let e = try basemap.estimate(isCancelled: isCancelled, progress: progress)
            estimate.tiles = basemap.plan.totalCount
            estimate.tileCounts = basemap.plan.counts
            estimate.tileFit = basemap.plan.fit(within: basemap.request.maxTiles)
            estimate.maxTiles = basemap.request.maxTiles
            estimate.tileBytes = e.bytes
            estimate.warnings += e.warnings
        }
        return estimate
    }

    /// Builds the package: validates everything first (nothing is written for bad input),
    /// reads the source in one transaction on a worker thread while this thread writes
    /// data.gpkg, then writes the manifest and renames the package into place.
    ///
    /// A replica that an interrupted run of the same output registered (pending, its package
    /// never completed) is unregistered, so the re-run leaves one replica for one package.
    /// - Parameter checkpoint: for tests: called at each ``ExtractCheckpoint``; an error it
    ///   throws ends the build there as a crash would (nothing cleaned up behind it).
    /// - Parameter tileProgress: basemap tiles done out of the total, as the copy goes.
    public static func create(_ request: ExtractRequest, toolVersion: String = "0",
                              isCancelled: @escaping @Sendable () -> Bool = { false },
                              progress: @escaping ExtractProgress = { _, _, _ in },
                              checkpoint: (@Sendable (ExtractCheckpoint) throws -> Void)? = nil) throws -> Result {
        let prepared = try prepare(request, isCancelled: isCancelled, progress: progress)
        try prepared.basemap?.checkTileCount()
        if request.register { try refreshSourceTriggers(request.source) }
        let output = URL(fileURLWithPath: request.output).standardizedFileURL
        let directory = try PackageDirectory.open(output: output, fingerprint: request.fingerprint, force: request.force,
                                                  inputs: request.inputs)
        let abandoned = directory.abandonedReplica.map(discardAbandoned) ?? []
        @Sendable func reach(_ point: ExtractCheckpoint) throws {
            do { try checkpoint?(point) } catch { throw CheckpointStop(underlying: error) }
        }
        // The replica registered by this run, until its package is in place.
        var registered: RegisteredReplica?
        do {
            var (result, created) = try buildData(prepared, into: directory, output: output, progress: progress,
                                                  isCancelled: isCancelled, reach: reach)
            result.warnings += abandoned
            let tiles = try copyBasemap(prepared, into: directory, result: &result, progress: progress,
                                        isCancelled: isCancelled)
            let manifest = try makeManifest(prepared, result: result, directory: directory, toolVersion: toolVersion,
                                            created: created, tiles: tiles)
            try manifest.encoded().write(to: directory.manifestURL)

            // Registered as pending before the rename, active after: a crash between the two
            // leaves a replica `source status` shows as pending, never a silent orphan.
            if let replicaID = result.replicaID {
                registered = try registerPending(replicaID, prepared, manifest: manifest, directory: directory,
                                                 output: output)
                try reach(.registered)
            }
            try directory.commit()
            let placed = registered
            registered = nil
            if let placed {
                try reach(.renamed)
                result.warnings += activate(placed)
            }
            return result
        } catch let stop as CheckpointStop {
            throw stop.underlying
        } catch let error as ExtractError where error.kind == .cancelled {
            throw ExtractError(.cancelled, "cancelled; the unfinished package is kept in \(directory.stagingURL.path) "
                + "and a re-run of the same command resumes it")
        } catch let error as ExtractError where error.kind == .incomplete {
            // Kept, as the message says: the re-run fetches only the tiles still missing.
            throw error
        } catch {
            directory.discard()
            if let registered { unregisterFailed(registered) }
            if let e = error as? ExtractError { throw e }
            throw ExtractError(.failure, "cannot build \(output.path): \(error)")
        }
    }
}
