import Foundation
import Geometry
import HTTP
import TilePackage

/// The basemap of a package: the tiles whose squares' interiors meet the area's interior,
/// copied from an MBTiles file or downloaded from a URL template into a deduplicated
/// basemap.mbtiles, resumably (TilePackage's pipeline).
struct Basemap {
    let request: TilesRequest
    let coverage: TileCoverage
    let areaBounds: Envelope

    /// Plans the coverage and checks it against `--max-tiles`.
    /// - Throws: `ExtractError` naming the limit when the coverage is larger.
    /// The tiles are planned as `tiles` plans them (`TilePlan`): a box as the box it says.
    static func plan(_ request: TilesRequest, area: AreaOfInterest, geos: GEOSContext, proj: PROJContext,
                     isCancelled: () -> Bool) throws -> Basemap {
        let plan: TilePlan
        do {
            plan = try TilePlan(area: area, zooms: request.minZoom...request.maxZoom, geos: geos, proj: proj,
                                isCancelled: isCancelled)
        } catch let error as GeometryError {
            throw ExtractError(.crs, "cannot take the area from \(area.crs) to the basemap's tiles: \(error.message)")
        }
        let coverage = plan.coverage
        do {
            try coverage.checkTileCount(maxTiles: request.maxTiles)
        } catch {
            throw ExtractError(.area, error.message)
        }
        return Basemap(request: request, coverage: coverage, areaBounds: plan.areaBounds)
    }

    var isURL: Bool { TileURLTemplate.isURL(request.source) }

    /// The tile source as the manifest may name it: a file path, or the template without
    /// its query string.
    func identity() throws -> String {
        isURL ? try TileURLTemplate(request.source).redacted : URL(fileURLWithPath: request.source).standardizedFileURL.path
    }

    func makeSource(isCancelled: @escaping () -> Bool) throws -> any TileSource {
        if isURL {
            var configuration = HTTPConfiguration()
            configuration.concurrency = request.concurrency
            for header in request.headers {
                do {
                    configuration.headers.append(try HTTPConfiguration.parseHeader(header))
                } catch {
                    throw ExtractError(.source, "tile source \(try identity()): \(error.description)")
                }
            }
            return try HTTPTileSource(template: request.source, configuration: configuration, isCancelled: isCancelled)
        }
        guard FileManager.default.fileExists(atPath: request.source) else {
            throw ExtractError(.source, "tile source \(request.source) does not exist")
        }
        return try MBTilesSource(path: request.source, zooms: request.minZoom...request.maxZoom)
    }

    /// Tile count per zoom, the bytes the source expects them to take (nil when unknown), and
    /// what is wrong with the source (rows outside their zoom's range), as `create` would warn.
    func estimate(isCancelled: @escaping () -> Bool) throws
        -> (perZoom: [(zoom: Int, tiles: Int)], bytes: Int?, warnings: [String]) {
        let source = try makeSource(isCancelled: isCancelled)
        let perZoom = (request.minZoom...request.maxZoom).map { (zoom: $0, tiles: coverage.count(zoom: $0)) }
        let bytes = try source.estimatedBytes(of: coverage)
        return (perZoom, bytes, source.warnings)
    }

    /// Copies the tiles into `output` (resuming a copy an interrupted run left beside it).
    func copy(to output: String, isCancelled: @escaping () -> Bool) throws -> TileCopyReport {
        let source = try makeSource(isCancelled: isCancelled)
        let key = [try identity(), "\(areaBounds)", "\(request.minZoom)-\(request.maxZoom)", "\(coverage.totalCount)"]
            .joined(separator: "|")
        let copy = TileCopyRequest(output: output, coverage: coverage, areaBounds: areaBounds, jobKey: key)
        return try TileCopy.run(copy, from: source, isCancelled: isCancelled)
    }
}
