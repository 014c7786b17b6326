import SQLite
@testable import TilePackage

extension MBTilesReader {
    /// Per zoom present in the file: the tiles with valid numbers and their column and row
    /// (XYZ) ranges, read with one query of its own to check the reader's other answers.
    func zoomSummaries() throws -> [(zoom: Int, count: Int, range: TileRange)] {
        try connection.query("""
            SELECT zoom_level, count(*), min(tile_column), max(tile_column), min(tile_row), max(tile_row)
            FROM \(tilesRelation)
            WHERE zoom_level BETWEEN 0 AND \(TileID.maxZoom) AND tile_column >= 0 AND tile_row >= 0
              AND tile_column < (1 << zoom_level) AND tile_row < (1 << zoom_level)
            GROUP BY zoom_level ORDER BY zoom_level
            """).compactMap { row in
            guard let z = row[0].int64Value.map(Int.init), let minTMS = row[4].int64Value, let maxTMS = row[5].int64Value else { return nil }
            let top = (1 << z) - 1
            let range = TileRange(z: z, minX: Int(row[2].int64Value ?? 0), maxX: Int(row[3].int64Value ?? 0),
                                  minY: top - Int(maxTMS), maxY: top - Int(minTMS))
            return (z, Int(row[1].int64Value ?? 0), range)
        }
    }
}
