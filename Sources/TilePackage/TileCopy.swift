import Foundation
import Geometry
import SQLite

/// What to copy where.
public struct TileCopyRequest: Sendable {
    /// The finished file's path; the work in progress is `workPath` beside it.
    public var output: String
    public var coverage: TileCoverage
    /// The area's bounding box in degrees (west, south, east, north), for `bounds`.
    public var areaBounds: Envelope
    /// Says what job a work file belongs to, so a resume never mixes two jobs' tiles
    /// (source identity, area, zooms). Never holds credentials: it is stored in the work file.
    public var jobKey: String
    /// The tileset's `name`; defaults to the source's, then to the output's file name.
    public var name: String?
    /// Finish the output without the tiles the source failed to deliver (listed in the
    /// report), rather than stop with them to be fetched by a re-run.
    public var skipFailed: Bool

    public init(output: String, coverage: TileCoverage, areaBounds: Envelope, jobKey: String,
                name: String? = nil, skipFailed: Bool = false) {
        self.output = output
        self.coverage = coverage
        self.areaBounds = areaBounds
        self.jobKey = jobKey
        self.name = name
        self.skipFailed = skipFailed
    }

    /// Where the work in progress lives: beside the output, under a name no reader takes for
    /// a finished tileset.
    public var workPath: String { output + ".partial" }
}

/// A tile the source failed to deliver, and why (credentials redacted).
public struct TileFailure: Sendable, Hashable {
    public var tile: TileID
    public var reason: String
}

/// What a copy did.
public struct TileCopyReport: Sendable, Hashable {
    /// Tiles the coverage asked for.
    public var requested = 0
    /// Tiles written in this run.
    public var written = 0
    /// Tiles already in the work file from an interrupted run, not fetched again.
    public var resumed = 0
    /// Tiles the source does not have.
    public var absent = 0
    /// The same, per zoom (zooms with none left out).
    public var absentByZoom: [Int: Int] = [:]
    /// Tiles the source failed to deliver.
    public var failed = 0
    /// The same, per zoom (zooms with none left out).
    public var failedByZoom: [Int: Int] = [:]
    /// Why the first of them failed (credentials redacted), when one did.
    public var firstFailure: String?
    /// The first `TileCopyReport.listedFailures` of them, with why (credentials redacted).
    public var failures: [TileFailure] = []
    /// Bytes of tile data written in this run.
    public var bytes = 0
    /// The lowest and highest zoom with at least one tile in the output.
    public var zooms: ClosedRange<Int>?
    /// Every zoom with at least one tile in the output: `zooms` may hide gaps (a zoom whose
    /// tiles were all absent or failed between two held ones).
    public var heldZooms: [Int] = []
    public var warnings: [String] = []
}

/// Copies the tiles of a coverage from any `TileSource` into a deduplicated MBTiles file,
/// resumable and atomic: the output's name appears only when it is complete.
public enum TileCopy {
    /// Progress: tiles handled (written, resumed, absent or failed) out of the total.
    public typealias Progress = (_ done: Int, _ total: Int) -> Void

    /// - Throws: `TilePackageError(.incomplete)` when tiles could not be fetched (the work in
    ///   progress is kept: running again resumes); `CancellationError` when `isCancelled`
    ///   turned true (also kept); `TilePackageError` for unreadable sources or unwritable files.
    public static func run(_ request: TileCopyRequest, from source: some TileSource,
                           progress: Progress = { _, _ in }, isCancelled: () -> Bool = { false }) throws -> TileCopyReport {
        var report = TileCopyReport()
        report.requested = request.coverage.totalCount
        let sourceMetadata = try source.metadata()
        let work = request.workPath
        try discardForeignWork(at: work, jobKey: request.jobKey)
        // The writer lives only inside fill, so its connection is closed before the rename.
        try fill(request, from: source, sourceMetadata: sourceMetadata, report: &report,
                 progress: progress, isCancelled: isCancelled)
        try moveIntoPlace(work, request.output)
        // Read last: a file source looks for its problems while the copy runs.
        report.warnings = source.warnings + report.absenceWarnings(request.coverage) + report.skippedFailureWarnings(source.identity)
        return report
    }

    private static func fill(_ request: TileCopyRequest, from source: some TileSource, sourceMetadata: TileSourceMetadata,
                             report: inout TileCopyReport, progress: Progress, isCancelled: () -> Bool) throws {
        let w = try MBTilesWriter(path: request.workPath)
        w.reserveImages(report.requested)
        let resuming = try !w.isEmpty()
        let direct = try (source as? any DirectCopyTileSource).map { try MBTilesDirectCopy(writer: w, source: $0.reader) }
        defer { try? direct?.close() }
        var firstTile: Data?
        // The job key, the first tiles, and for a short copy the last tiles and the final
        // metadata too, share one transaction: each commit costs two fsyncs.
        try w.beginBatch()
        do {
            try w.setMetadata([(jobKeyName, workJobKey(request.jobKey))])
            if let direct {
                try copyInsideSQLite(request, with: direct, resuming: resuming, report: &report,
                                     progress: progress, isCancelled: isCancelled)
                if sourceMetadata.format == nil { firstTile = try w.anyImage() }
            } else {
                try copyTileByTile(request, from: source, into: w, resuming: resuming, firstTile: &firstTile,
                                   report: &report, progress: progress, isCancelled: isCancelled)
            }
            if report.failed > 0 && !request.skipFailed {
                try w.commitBatch()
                throw TilePackageError(.incomplete, "\(report.failed) of \(report.requested) tiles could not be fetched from \(source.identity)"
                    + (report.firstFailure.map { " (the first: \($0))" } ?? "") + "; the tiles so far are kept in \(request.workPath): run the same command again to resume")
            }
            report.zooms = try w.writtenZooms()
            report.heldZooms = try w.heldZooms(among: request.coverage.zooms)
            try w.setMetadata(outputMetadata(request, source: sourceMetadata, written: report.zooms, firstTile: firstTile, writer: w)
                              + [(jobKeyName, nil), (SkippedTiles.metadataName, SkippedTiles(report)?.metadataValue())])
            try w.commitBatch()
        } catch is CancellationError {
            // Whole tiles only: what is written is kept for the resume.
            try w.commitOpenBatch()
            throw CancellationError()
        } catch {
            w.rollbackBatch()
            throw error
        }
        try direct?.close()
        try w.finish()
    }

    /// The copy from a source that is not an MBTiles file (HTTP), in the batch `fill` opened:
    /// the tiles are fetched by number in one call over the whole coverage, skipping those an
    /// interrupted run already wrote, so that a source working concurrently never waits for a
    /// batch to drain. Commits every `commitInterval`; `fill` commits what is written on
    /// cancellation.
    private static func copyTileByTile(_ request: TileCopyRequest, from source: some TileSource, into w: MBTilesWriter,
                                       resuming: Bool, firstTile: inout Data?, report: inout TileCopyReport,
                                       progress: Progress, isCancelled: () -> Bool) throws {
        var commits = PeriodicCommit(w)
        let total = report.requested
        // Counted while the source pulls the tiles to fetch, outside `report` (inout).
        var resumed = 0
        let wanted = TilesToFetch(request.coverage.zooms.flatMap { request.coverage.ranges(zoom: $0) }) { tile in
            guard resuming, try w.contains(tile) else { return true }
            resumed += 1
            return false
        }
        var handled = 0
        try source.fetch(wanted) { tile, result in
            switch result {
            case .data(let data):
                try w.write(tile, data: data)
                if firstTile == nil { firstTile = data }
                report.written += 1
                report.bytes += data.count
            case .absent:
                report.absent += 1
                report.absentByZoom[tile.z, default: 0] += 1
            case .failed(let message):
                if report.failed == 0 { report.firstFailure = message }
                if report.failures.count < TileCopyReport.listedFailures { report.failures.append(TileFailure(tile: tile, reason: message)) }
                report.failed += 1
                report.failedByZoom[tile.z, default: 0] += 1
            }
            handled += 1
            if isCancelled() { throw CancellationError() }
            if handled % 64 == 0 { progress(handled + resumed, total) }
            try commits.ifDue { progress(handled + resumed, total) }
        }
        try wanted.rethrowFailure()
        report.resumed += resumed
        progress(handled + resumed, total)
    }

    /// How long a copy goes between commits (see `PeriodicCommit`).
    static let commitInterval: Duration = .seconds(1)

    /// The copy from an MBTiles file, in the batch `fill` opened: each rectangle of the
    /// coverage, cut into pieces of at most `MBTilesDirectCopy.maximumTiles`, is selected
    /// inside SQLite. Commits every `commitInterval`; cancellation is polled between pieces
    /// and commits what is done. A resumed copy keeps the pieces it finds complete and fills
    /// in the rest.
    private static func copyInsideSQLite(_ request: TileCopyRequest, with copy: MBTilesDirectCopy, resuming: Bool,
                                         report: inout TileCopyReport, progress: Progress, isCancelled: () -> Bool) throws {
        var commits = PeriodicCommit(copy.writer)
        var done = 0
        for z in request.coverage.zooms {
            for range in request.coverage.ranges(zoom: z) {
                try range.forEachChunk(maxTiles: MBTilesDirectCopy.maximumTiles) { chunk in
                    let (written, kept) = try copy.copy(chunk, resuming: resuming)
                    report.written += written
                    report.resumed += kept
                    report.absent += chunk.count - written - kept
                    if chunk.count > written + kept { report.absentByZoom[z, default: 0] += chunk.count - written - kept }
                    done += chunk.count
                    if isCancelled() {
                        progress(done, report.requested)
                        throw CancellationError()
                    }
                    try commits.ifDue { progress(done, report.requested) }
                }
            }
        }
        report.bytes = copy.bytes
        progress(done, report.requested)
    }

    static let jobKeyName = "pkgbuild_job"

    /// The job key as the work file stores it: with the layout of the work file, so that
    /// one an older version began in another layout is not resumed.
    static func workJobKey(_ jobKey: String) -> String { "work format 2: " + jobKey }

    /// A work file left by a different job (other source, area or zooms) is not resumed.
    static func discardForeignWork(at work: String, jobKey: String) throws {
        guard FileManager.default.fileExists(atPath: work) else { return }
        // Read-write: a crash may have left a journal to roll back first.
        let db = try? Connection(path: work, mode: .readWrite)
        let existing = try? db?.scalar("SELECT value FROM metadata WHERE name = ?", [.text(jobKeyName)])?.stringValue
        // Only a work file of ours is thrown away: one with a job key, or the writer's schema
        // without a tile (a run stopped before its first commit). Anything else is the user's.
        let tileCount: SQLiteValue? = try? db?.scalar("SELECT count(*) FROM map")
        let size = (try? FileManager.default.attributesOfItem(atPath: work))?[.size] as? Int
        let ours = existing != nil || tileCount?.int64Value == 0 || size == 0
        guard ours else {
            throw TilePackageError(.invalidInput, "\(work) exists and is not an unfinished copy of pkgbuild's; "
                + "move it away (its name is where the copy is written before it is renamed into place)")
        }
        if existing != workJobKey(jobKey) {
            for suffix in ["", "-wal", "-shm", "-journal"] { try? FileManager.default.removeItem(atPath: work + suffix) }
        }
    }

    static func outputMetadata(_ request: TileCopyRequest, source: TileSourceMetadata, written: ClosedRange<Int>?,
                               firstTile: Data?, writer: MBTilesWriter) throws -> [(String, String?)] {
        let earlier = try writer.metadataValue("format")
        let format = source.format ?? firstTile.flatMap(TileFormat.sniff) ?? earlier
        var bounds = request.areaBounds
        if let s = source.bounds, bounds.minX <= bounds.maxX, s.minX <= s.maxX {
            // Within the source's bounds: the output has nothing outside them.
            bounds = Envelope(minX: max(bounds.minX, s.minX), minY: max(bounds.minY, s.minY),
                              maxX: min(bounds.maxX, s.maxX), maxY: min(bounds.maxY, s.maxY))
            if bounds.minX > bounds.maxX || bounds.minY > bounds.maxY { bounds = request.areaBounds }
        }
        bounds.minY = WebMercator.clampLatitude(bounds.minY)
        bounds.maxY = WebMercator.clampLatitude(bounds.maxY)
        let name = request.name ?? source.name ?? ((request.output as NSString).lastPathComponent as NSString).deletingPathExtension
        var entries: [(String, String?)] = [
            ("name", name),
            ("format", format),
            ("bounds", [bounds.minX, bounds.minY, bounds.maxX, bounds.maxY].map(number).joined(separator: ",")),
            ("type", source.type ?? "baselayer"),
            ("attribution", source.attribution),
            ("description", source.description),
            ("json", format == "pbf" ? source.json : nil),
            ("scheme", nil),
        ]
        if let written {
            // Across the antimeridian the middle is east of west by half the span round it.
            var centreX = bounds.minX <= bounds.maxX ? (bounds.minX + bounds.maxX) / 2 : (bounds.minX + bounds.maxX + 360) / 2
            if centreX > 180 { centreX -= 360 }
            let centreZoom = (written.lowerBound + written.upperBound) / 2
            entries += [("minzoom", String(written.lowerBound)), ("maxzoom", String(written.upperBound)),
                        ("center", "\(number(centreX)),\(number((bounds.minY + bounds.maxY) / 2)),\(centreZoom)")]
        } else {
            entries += [("minzoom", nil), ("maxzoom", nil), ("center", nil)]
        }
        return entries
    }

    static func number(_ v: Double) -> String {
        // Trailing zeros go, and the point with them when nothing follows it (a regular
        // expression would do, at the cost of compiling one on every run).
        var text = String(format: "%.7f", v)
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text == "-0" ? "0" : text
    }

    /// Renames the finished work file onto the output (atomically replacing an older one),
    /// durably: the file's contents reach the disk before the rename, and the rename before
    /// the copy reports success, so that after a power loss the output's name never holds an
    /// incomplete file and a finished copy stays finished.
    static func moveIntoPlace(_ work: String, _ output: String) throws {
        try syncToDisk(work)
        guard rename(work, output) == 0 else {
            throw TilePackageError(.io, "cannot rename \(work) to \(output): \(String(cString: strerror(errno)))")
        }
        try syncToDisk(((output as NSString).deletingLastPathComponent as NSString).length > 0
                       ? (output as NSString).deletingLastPathComponent : ".")
    }

    /// fsync of a file or a directory (for a directory: the names in it).
    static func syncToDisk(_ path: String) throws {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else {
            throw TilePackageError(.io, "cannot open \(path) to flush it: \(String(cString: strerror(errno)))")
        }
        defer { close(fd) }
        guard fsync(fd) == 0 else {
            throw TilePackageError(.io, "cannot flush \(path) to disk: \(String(cString: strerror(errno)))")
        }
    }
}

/// Commits a writer's open batch and begins the next at most every `TileCopy.commitInterval`:
/// a crash loses at most that much work, and a commit (two fsyncs) is paid at most that often.
private struct PeriodicCommit {
    let writer: MBTilesWriter
    private let clock = ContinuousClock()
    private var last: ContinuousClock.Instant

    init(_ writer: MBTilesWriter) {
        self.writer = writer
        last = clock.now
    }

    /// Commits when the interval has passed, calling `committed` between commit and begin.
    mutating func ifDue(_ committed: () -> Void) throws {
        guard clock.now - last >= TileCopy.commitInterval else { return }
        try writer.commitBatch()
        committed()
        try writer.beginBatch()
        last = clock.now
    }
}
