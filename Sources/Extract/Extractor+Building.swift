import Foundation
import Geodatabase
import Geometry
import PackageFormat
import TilePackage

/// Building: data.gpkg written from what the reading worker sends, change tracking and the
/// package's metadata in the same transaction, then the basemap and the manifest.
extension Extractor {
    /// Writes data.gpkg in one transaction: the source's rows (read on a worker thread while
    /// this thread writes), change tracking, metadata and the clipped layers' guards.
    /// - Returns: the result (with a new replica id when the package is to be registered)
    ///   and the moment of creation, which data.gpkg and the manifest share.
    static func buildData(_ prepared: Prepared, into directory: PackageDirectory, output: URL,
                          progress: @escaping ExtractProgress, isCancelled: @escaping @Sendable () -> Bool,
                          reach: @escaping @Sendable (ExtractCheckpoint) throws -> Void) throws -> (result: Result, created: String) {
        let writer = try GeoPackageWriter(path: directory.dataURL.path)
        for srs in prepared.spatialReferenceSystems { try writer.addSpatialReferenceSystem(srs) }
        let tally = try writeRows(prepared, with: writer, progress: progress, isCancelled: isCancelled, reach: reach)
        try writer.finish()
        let replicaID: String? = prepared.request.register ? GlobalID.make() : nil
        let result = result(prepared, tally: tally, replicaID: replicaID, package: output.path)
        let tracked = try installChangeTracking(prepared, writer: writer)
        // One moment for data.gpkg and manifest.json, which must agree.
        let created = ISO8601DateFormatter().string(from: Date())
        try PackageMetadata.write(to: writer.database, values: [
            "format_version": "\(PackageManifest.currentFormatVersion)",
            "replica_id": replicaID,
            "source": prepared.source.source.location,
            "extraction_generation": tally.generation.map(String.init),
            "sync_generation": tally.generation.map(String.init),
            "source_cursor": tally.cursor,
            "area_wkt": prepared.area.geometry.wkt,
            "area_crs": prepared.area.crs,
            "created": created,
            PackageMetadata.syncRecordsKey: PackageMetadata.syncRecordsValue,
        ], layers: zip(prepared.plans, result.layers).map {
            PackageMetadata.LayerRecord(name: $0.name, sourceCRS: $0.sourceCRS, packageCRS: $0.packageCRS, cut: $1.cut)
        })
        try OwnTables.register(in: writer.database, side: .package)
        let clipped = zip(prepared.plans, result.layers).filter { $1.cut.clipped && tracked.contains($0.name) }.map(\.0.name)
        do { try PackageChangeTracking(connection: writer.database).installClipGuards(tables: clipped) } catch {
            throw ExtractError(.failure, "cannot install the clipped layers' triggers in the package: \(error)")
        }
        try writer.commit()
        return (result, created)
    }

    /// The writer loop: reads the source on a worker thread and writes what it sends as it
    /// comes, through a bounded queue. A write error closes the queue, so the worker stops.
    private static func writeRows(_ prepared: Prepared, with writer: GeoPackageWriter, progress: ExtractProgress,
                                  isCancelled: @escaping @Sendable () -> Bool,
                                  reach: @escaping @Sendable (ExtractCheckpoint) throws -> Void) throws -> ExtractTally {
        let queue = BoundedQueue<ExtractMessage>(capacity: 8)
        let outcome = WorkerOutcome()
        let worker = Thread {
            do {
                outcome.tally = try read(prepared, send: { queue.put($0) }, isCancelled: isCancelled,
                                         snapshotRead: { try reach(.snapshotRead) })
            } catch {
                outcome.error = error
            }
            queue.close()
            outcome.finished.signal()
        }
        worker.stackSize = 4 << 20
        worker.start()
        var writeError: Error?
        var rowsWritten = 0
        while let message = queue.take() {
            guard writeError == nil else { continue }
            do {
                switch message {
                case .createTable(let table): try writer.createTable(table)
                case .rows(let table, let rows):
                    for row in rows { try writer.insert(into: table, row.values, envelope: row.envelope) }
                    rowsWritten += rows.count
                    progress(.features, rowsWritten, 0)
                case .sql(let sql, let arguments): try writer.execute(sql, arguments)
                }
            } catch {
                writeError = error
                queue.close()
            }
        }
        outcome.finished.wait()
        if let error = outcome.error ?? writeError { throw error }
        guard let tally = outcome.tally else { throw ExtractError(.failure, "the reading worker stopped") }
        return tally
    }

    /// Edits made in the package from now on are recorded, whoever makes them: in the layers
    /// with a global id, and in the Related Tables mapping tables copied with their global
    /// ids (their links sync too). Returns the tables tracked.
    private static func installChangeTracking(_ prepared: Prepared, writer: GeoPackageWriter) throws -> [String] {
        let mappings = try Set(prepared.relationships.compactMap(\.mappingTable)).sorted().filter {
            try writer.hasColumn(named: "globalid", in: $0)
        }
        let tracked = prepared.plans.filter { $0.info.globalIDColumn != nil }.map(\.name) + mappings
        if !tracked.isEmpty {
            do { try PackageChangeTracking(connection: writer.database).install(tables: tracked) } catch {
                throw ExtractError(.failure, "cannot install change tracking in the package: \(error)")
            }
        }
        return tracked
    }

    /// Copies the basemap into the package directory, adding its tiles and warnings to the
    /// result. Returns the manifest's description of it; nil without a basemap.
    static func copyBasemap(_ prepared: Prepared, into directory: PackageDirectory, result: inout Result,
                            progress: @escaping ExtractProgress,
                            isCancelled: @escaping @Sendable () -> Bool) throws -> PackageManifest.Tiles? {
        guard let basemap = prepared.basemap else { return nil }
        let report: TileCopyReport
        do {
            report = try basemap.copy(to: directory.basemapURL.path, progress: { progress(.tiles, $0, $1) },
                                      isCancelled: isCancelled)
        } catch is CancellationError {
            throw ExtractError(.cancelled, "cancelled")
        } catch let error as TilePackageError where error.kind == .incomplete {
            throw ExtractError(.incomplete, error.message)
        }
        result.warnings += report.warnings
        result.tiles = report.written + report.resumed
        result.tileReport = report
        // The zooms really held: a source without tiles at the deepest zooms asked for
        // leaves them out, and the manifest says so rather than claim them.
        let held = report.zooms ?? basemap.request.minZoom...basemap.request.maxZoom
        return .init(file: PackageLayout.basemapFileName, minZoom: held.lowerBound, maxZoom: held.upperBound,
                     count: report.written + report.resumed, source: try basemap.identity(),
                     requestedMinZoom: basemap.request.minZoom, requestedMaxZoom: basemap.request.maxZoom)
    }

    static func makeManifest(_ prepared: Prepared, result: Result, directory: PackageDirectory,
                             toolVersion: String, created: String, tiles: PackageManifest.Tiles?) throws -> PackageManifest {
        let wkt = prepared.area.geometry.wkt
        let geojson = try JSONValue(parsing: prepared.lonLatArea.geoJSON(), source: "the area's GeoJSON")
        var files: [String: Int64] = [:]
        for name in [PackageLayout.dataFileName, PackageLayout.basemapFileName] {
            let url = directory.stagingURL.appendingPathComponent(name)
            if let size = (try? FileManager.default.attributesOfItem(atPath: url.path))?[.size] as? Int64 { files[name] = size }
        }
        return PackageManifest(
            tool: .init(name: "pkgbuild", version: toolVersion),
            created: created,
            replicaID: result.replicaID ?? "",
            source: .init(kind: prepared.source.source.kind, location: prepared.source.source.location,
                          generation: result.generation),
            area: .init(geojson: geojson, wkt: wkt, crs: prepared.area.crs),
            layers: result.layers.map {
                .init(name: $0.name, dataType: $0.dataType, geometryType: $0.geometryType, crs: $0.crs,
                      count: $0.count, cut: $0.cut)
            },
            tiles: tiles, files: files)
    }
}

/// The worker thread's result, read by the writer once the worker has finished.
final class WorkerOutcome: @unchecked Sendable {
    var tally: ExtractTally?
    var error: Error?
    let finished = DispatchSemaphore(value: 0)
}
