import Foundation

/// Tiles from an MBTiles file (plain or deduplicated).
public final class MBTilesSource: TileSource {
    public let reader: MBTilesReader
    public let warnings: [String]

    /// - Parameter zooms: the zooms a copy will read: only their rows are checked for
    ///   numbers outside their zoom's range (nil checks every row).
    /// - Throws: `TilePackageError(.invalidInput)` when the file is missing or not MBTiles.
    public init(path: String, zooms: ClosedRange<Int>? = nil) throws {
        reader = try MBTilesReader(path: path)
        if let bad = try reader.outOfRangeRows(zooms: zooms) {
            let e = bad.example
            warnings = ["\(path): \(bad.count) tile rows lie outside their zoom's range and are ignored "
                + "(for example zoom_level \(e.zoom), tile_column \(e.column), tile_row \(e.row))"]
        } else {
            warnings = []
        }
    }

    public var identity: String { reader.path }

    /// The file itself: a copy can run inside SQLite.
    public var mbtilesFile: MBTilesReader? { reader }

    public func metadata() throws -> TileSourceMetadata { try reader.metadata() }

    public func fetch(_ tiles: some Sequence<TileID>, _ report: (TileID, TileFetchResult) throws -> Void) throws {
        for t in tiles {
            if let data = try reader.tile(t) { try report(t, .data(data)) } else { try report(t, .absent) }
        }
    }

    public func scan(_ range: TileRange, _ report: (TileID, Data) throws -> Void) throws -> Bool {
        try reader.forEachTile(in: range, report)
        return true
    }

    /// Exact: the sum of the stored sizes of the tiles the coverage selects.
    public func estimatedBytes(of coverage: TileCoverage) throws -> Int? {
        var total = 0
        for z in coverage.zooms {
            for r in coverage.ranges(zoom: z) { total += try reader.sizes(in: r).bytes }
        }
        return total
    }
}
