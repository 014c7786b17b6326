import Extract
import Foundation
import Geometry
import HTTP
import TilePackage

/// `pkgbuild tiles`: basemap tiles of an area into an MBTiles file, from an MBTiles file or
/// an XYZ/TMS URL template. Usable alone, like `pmtiles extract`.
public struct TilesCommand: Command {
    public static let configuration = CommandConfiguration(
        name: "tiles",
        abstract: "Copy the basemap tiles of an area into an MBTiles file.",
        discussion: """
            Takes, for each zoom, the tiles whose square's interior meets the area's \
            interior (the polygon, not its bounding box; touching is not enough) from an \
            MBTiles file or an XYZ/TMS URL template, and writes them deduplicated into an \
            MBTiles 1.3 file. The output appears under its name only when complete; run the \
            same command again after an interruption to resume.
            """,
        arguments: [
            .area,
            .areaCRS,
            .option("zoom", valueName: "MIN-MAX", help: "Zoom levels, such as 0-12, or one zoom.", defaultValue: "0-12"),
            .option("from", valueName: "FILE.mbtiles|URL",
                    help: "The tile source: an MBTiles file, or an XYZ/TMS URL template with {z}, {x}, {y} or {-y}.",
                    isRequired: true),
            .option("output", short: "o", valueName: "OUT.mbtiles", help: "The MBTiles file to write (not needed with --dry-run)."),
            .maxTiles,
            .concurrency,
            .option("rate", valueName: "N", help: "At most N HTTP requests per second. (default: no limit)"),
            HeaderOption.definition,
            .option("name", valueName: "TEXT", help: "The tileset's name in the metadata. (default: the source's, else the file name)"),
            .flag("force", help: "Replace an existing MBTiles file (never the tile source, nor any other kind of file)."),
            .flag("dry-run", help: "Print tiles per zoom, total and estimated bytes; write nothing."),
            .skipFailed,
            .json("result"),
        ])

    let area: String
    let areaCRS: String
    let zooms: ClosedRange<Int>
    let from: String
    let output: String?
    let maxTiles: Int
    let concurrency: Int
    let rate: Double?
    let headers: [(name: String, value: String)]
    let name: String?
    let force: Bool
    let dryRun: Bool
    let skipFailed: Bool
    let json: Bool

    public init(_ arguments: ParsedArguments) throws {
        area = try arguments.required("area")
        areaCRS = try arguments.required("area-crs")
        zooms = try TilesCommand.zoomRange(try arguments.required("zoom"))
        from = try arguments.required("from")
        output = try arguments.value("output")
        maxTiles = try arguments.required("max-tiles")
        concurrency = try arguments.required("concurrency")
        rate = try arguments.value("rate")
        name = try arguments.value("name")
        force = arguments.flag("force")
        dryRun = arguments.flag("dry-run")
        skipFailed = arguments.flag("skip-failed")
        json = arguments.flag("json")
        headers = try HeaderOption.values(arguments)
        guard maxTiles > 0 else { throw UsageError("--max-tiles must be at least 1") }
        guard concurrency > 0 else { throw UsageError("--concurrency must be at least 1") }
        if let rate, !(rate > 0) { throw UsageError("--rate must be a positive number of requests per second") }
        if !dryRun && output == nil { throw UsageError("missing -o/--output (or use --dry-run)") }
    }

    /// The deepest zoom accepted: 2^24 tiles a side is already far below a metre.
    static let deepestZoom = 24

    static func zoomRange(_ text: String) throws -> ClosedRange<Int> {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false).map { Int($0.trimmingCharacters(in: .whitespaces)) }
        let bounds: [Int?] = parts.count == 1 ? [parts[0], parts[0]] : parts
        guard bounds.count == 2, let lo = bounds[0], let hi = bounds[1], lo >= 0, hi >= lo, hi <= deepestZoom else {
            throw UsageError("--zoom \(text): expected min-max with 0 <= min <= max <= \(deepestZoom), such as 0-12")
        }
        return lo...hi
    }

    public func run(_ context: CommandContext) throws {
        // Before anything is read: the output's rename would replace whatever has its name.
        if let output, !dryRun {
            try TileOutputCheck.check(output, force: force, source: TileURLTemplate.isURL(from) ? nil : from)
        }
        let geos = try GEOSContext()
        let proj = try PROJContext()
        let parsedArea: AreaOfInterest
        do {
            parsedArea = try AreaOfInterest(parsing: area, crs: areaCRS, context: geos)
        } catch let error as GeometryError {
            // The message names the area ("area POLYGON(...): ..."); say it as the option.
            throw UsageError(error.message.hasPrefix("area ") ? "--\(error.message)" : "--area: \(error.message)")
        }
        if let repaired = parsedArea.repairWarning { context.warn("--\(repaired)") }
        // The same steps, with the same labels, as `estimate` and `create` show.
        let stages = StageProgress(context: context)
        defer { stages.finish() }
        let plan = try TilePlan(area: parsedArea, zooms: zooms, limit: maxTiles, geos: geos, proj: proj,
                                isCancelled: { context.isCancelled },
                                progress: { stages.report(ExtractStage.planning.rawValue, done: $0, total: $1) })
        stages.finish()
        let coverage = plan.coverage
        let total = coverage.totalCount
        context.detail("Tiles: \(total) at zoom \(zooms.lowerBound)-\(zooms.upperBound) from \(from)"
                       + (output.map { " into \($0)" } ?? ""))
        let areaBounds = plan.areaBounds

        if !dryRun { try plan.checkTileCount(maxTiles: maxTiles) }

        let source = try openSource(context)

        if dryRun {
            // A plan counted only to the zoom that passed --max-tiles has no size for the rest.
            let bytes = plan.isComplete ? try source.estimatedBytes(of: coverage, progress: {
                stages.report(ExtractStage.sampling.rawValue, done: $0, total: $1)
            }) : nil
            stages.finish()
            printPlan(TilePlanOutput(counts: plan.counts, bytes: bytes, maxTiles: maxTiles, fit: plan.fit(within: maxTiles)),
                      context: context)
            for warning in source.warnings { context.warn(warning) }
            return
        }
        guard let output else { return }
        let request = TileCopyRequest(output: output, coverage: coverage, areaBounds: areaBounds,
                                      jobKey: "\(source.identity) \(parsedArea.crs) \(parsedArea.text) z\(zooms.lowerBound)-\(zooms.upperBound)",
                                      name: name, skipFailed: skipFailed)
        let bar = ProgressBar(label: "tiles", total: total, context: context)
        let report: TileCopyReport
        do {
            report = try TileCopy.run(request, from: source, progress: { done, _ in bar.update(done: done) },
                                      isCancelled: { context.isCancelled })
        } catch is Swift.CancellationError {
            bar.finish()
            context.printError("Interrupted: the tiles so far are kept in \(request.workPath); run the same command again to resume.")
            throw ExitCode.interrupted
        }
        bar.finish()
        for warning in report.warnings { context.warn(warning) }
        printReport(report, output: output, context: context)
    }

    private func openSource(_ context: CommandContext) throws -> any TileSource {
        let options = TileSourceOptions(concurrency: concurrency, requestsPerSecond: rate, headers: headers,
                                        userAgent: HTTPConfiguration.userAgent(version: PkgBuildVersion.current))
        return try TileSources.open(from, zooms: zooms, options: options, isCancelled: { context.isCancelled })
    }

    private func printPlan(_ plan: TilePlanOutput, context: CommandContext) {
        if json {
            context.print(JSONValue.object(plan.jsonMembers()).prettyPrinted)
            return
        }
        context.write(plan.table)
        context.print(plan.totalLine)
        if let warning = plan.limitWarning { context.warn(warning) }
    }

    private func printReport(_ report: TileCopyReport, output: String, context: CommandContext) {
        if json {
            context.print(JSONValue.object([JSONMember("output", .string(output))] + report.jsonMembers).prettyPrinted)
            return
        }
        context.info("\(output): \(report.summary)")
    }

    static func humanBytes(_ n: Int) -> String {
        let units = ["B", "KB", "MB", "GB", "TB"]
        var value = Double(n), unit = 0
        while value >= 1000 && unit < units.count - 1 { value /= 1000; unit += 1 }
        return unit == 0 ? "\(n) B" : String(format: "%.1f %@", value, units[unit])
    }
}
