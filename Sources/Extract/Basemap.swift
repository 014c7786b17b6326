import Foundation
import Geometry
import HTTP
import TilePackage

/// The basemap of a package: the tiles whose squares' interiors meet the area's interior,
/// copied from an MBTiles file or downloaded from a URL template into a deduplicated
/// basemap.mbtiles, resumably (TilePackage's pipeline).
struct Basemap {
    let request: TilesRequest
    let plan: TilePlan

    /// Plans the tiles as `tiles` plans them (`TilePlan`: a box as the box it says), counting
    /// no further than the zoom that passes `--max-tiles`; `checkTileCount` refuses more.
    static func plan(_ request: TilesRequest, area: AreaOfInterest, geos: GEOSContext, proj: PROJContext,
                     isCancelled: () -> Bool, progress: ExtractProgress) throws -> Basemap {
        let plan: TilePlan
        do {
            plan = try TilePlan(area: area, zooms: request.minZoom...request.maxZoom, limit: request.maxTiles,
                                geos: geos, proj: proj, isCancelled: isCancelled,
                                progress: { progress(.planning, $0, $1) })
        } catch let error as GeometryError {
            throw ExtractError(.crs, "cannot take the area from \(area.crs) to the basemap's tiles: \(error.message)")
        }
        return Basemap(request: request, plan: plan)
    }

    var coverage: TileCoverage { plan.coverage }
    var areaBounds: Envelope { plan.areaBounds }

    /// - Throws: `ExtractError` naming `--max-tiles` when the plan has more tiles.
    func checkTileCount() throws {
        do {
            try plan.checkTileCount(maxTiles: request.maxTiles)
        } catch {
            throw ExtractError(.area, error.message)
        }
    }

    var isURL: Bool { TileURLTemplate.isURL(request.source) }

    /// The tile source as the manifest may name it: a file path, or the template without
    /// its query string.
    func identity() throws -> String {
        isURL ? try TileURLTemplate(request.source).redacted : URL(fileURLWithPath: request.source).standardizedFileURL.path
    }

    /// The source as `tiles` opens it (`TileSources.open`): the same User-Agent, rate,
    /// headers and concurrency.
    func makeSource(isCancelled: @escaping () -> Bool) throws -> any TileSource {
        var options = TileSourceOptions(concurrency: request.concurrency, requestsPerSecond: request.requestsPerSecond,
                                        userAgent: request.userAgent)
        for header in request.headers {
            do {
                options.headers.append(try HTTPConfiguration.parseHeader(header))
            } catch {
                throw ExtractError(.source, "tile source \(try identity()): \(error.description)")
            }
        }
        do {
            return try TileSources.open(request.source, zooms: request.minZoom...request.maxZoom, options: options,
                                        isCancelled: isCancelled)
        } catch let error as TilePackageError where error.kind == .invalidInput {
            throw ExtractError(.source, error.message)
        }
    }

    /// The bytes the source expects the tiles to take (nil when unknown, or when the plan is
    /// over `--max-tiles` and was not counted to its last zoom), and what is wrong with the
    /// source (rows outside their zoom's range), as `create` would warn.
    func estimate(isCancelled: @escaping () -> Bool, progress: ExtractProgress) throws -> (bytes: Int?, warnings: [String]) {
        let source = try makeSource(isCancelled: isCancelled)
        let bytes = plan.isComplete ? try source.estimatedBytes(of: coverage, progress: { progress(.sampling, $0, $1) }) : nil
        return (bytes, source.warnings)
    }

    /// Copies the tiles into `output` (resuming a copy an interrupted run left beside it).
    func copy(to output: String, progress: TileCopy.Progress, isCancelled: @escaping () -> Bool) throws -> TileCopyReport {
        let source = try makeSource(isCancelled: isCancelled)
        let key = [try identity(), "\(areaBounds)", "\(request.minZoom)-\(request.maxZoom)", "\(coverage.totalCount)"]
            .joined(separator: "|")
        let copy = TileCopyRequest(output: output, coverage: coverage, areaBounds: areaBounds, jobKey: key,
                                   skipFailed: request.skipFailed)
        return try TileCopy.run(copy, from: source, progress: progress, isCancelled: isCancelled)
    }
}
