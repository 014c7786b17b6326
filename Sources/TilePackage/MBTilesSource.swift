import Foundation

/// Tiles from an MBTiles file (plain or deduplicated), which a copy can copy inside SQLite.
public final class MBTilesSource: DirectCopyTileSource {
    public let reader: MBTilesReader
    private let rangeCheck: OutOfRangeCheck

    /// - Parameter zooms: the zooms a copy will read: only their rows are checked for
    ///   numbers outside their zoom's range (nil checks every row). The check runs beside
    ///   the caller; `warnings` waits for it.
    /// - Throws: `TilePackageError(.invalidInput)` when the file is missing or not MBTiles.
    public init(path: String, zooms: ClosedRange<Int>? = nil) throws {
        reader = try MBTilesReader(path: path)
        rangeCheck = OutOfRangeCheck(path: path, zooms: zooms)
    }

    /// Rows outside their zoom's range, when the file has any (they are never read).
    public var warnings: [String] { rangeCheck.warnings }

    public var identity: String { reader.path }

    public func metadata() throws -> TileSourceMetadata { try reader.metadata() }

    public func fetch(_ tiles: some Sequence<TileID>, _ report: (TileID, TileFetchResult) throws -> Void) throws {
        for t in tiles {
            if let data = try reader.tile(t) { try report(t, .data(data)) } else { try report(t, .absent) }
        }
    }

    /// Exact: the sum of the stored sizes of the tiles the coverage selects.
    public func estimatedBytes(of coverage: TileCoverage, progress: TileProgress) throws -> Int? {
        var total = 0
        for (done, z) in coverage.zooms.enumerated() {
            progress(done, coverage.zooms.count)
            for r in coverage.ranges(zoom: z) { total += try reader.sizes(in: r).bytes }
        }
        progress(coverage.zooms.count, coverage.zooms.count)
        return total
    }
}
