extension HTTPTileSource {
    /// The most tiles fetched per zoom to estimate sizes: enough to average out a few
    /// ocean or empty tiles, few enough for a dry run to stay quick.
    static var sampleTilesPerZoom: Int { 6 }

    /// Estimates the bytes of `coverage` from a sample of tiles fetched now: up to
    /// `sampleTilesPerZoom` tiles per zoom, spread evenly over the zoom's tiles (all of them
    /// when there are fewer). Absent tiles count as 0 bytes. A zoom whose samples all failed
    /// takes the average of the other zooms' tiles; nil when no sample arrived at all.
    /// `progress` counts the samples answered out of those asked.
    public func estimatedBytes(of coverage: TileCoverage, progress: TileProgress) throws -> Int? {
        var samples: [TileID] = []
        for z in coverage.zooms {
            samples += Self.evenlySpacedTiles(of: coverage, zoom: z, count: Self.sampleTilesPerZoom)
        }
        var bytesByZoom: [Int: (bytes: Int, tiles: Int)] = [:]
        var answered = 0
        progress(0, samples.count)
        try fetchResponses(samples) { response in
            answered += 1
            progress(answered, samples.count)
            let size: Int
            switch response.outcome {
            case .body(let data): size = data.count
            case .absent: size = 0
            case .failed: return
            }
            let z = response.tag.z
            bytesByZoom[z, default: (0, 0)].bytes += size
            bytesByZoom[z, default: (0, 0)].tiles += 1
        }
        let sampled = bytesByZoom.values.reduce((bytes: 0, tiles: 0)) { ($0.bytes + $1.bytes, $0.tiles + $1.tiles) }
        guard sampled.tiles > 0 else { return nil }
        let overallMean = Double(sampled.bytes) / Double(sampled.tiles)
        var total = 0.0
        for (z, count) in coverage.counts where count > 0 {
            let mean = bytesByZoom[z].map { Double($0.bytes) / Double($0.tiles) } ?? overallMean
            total += mean * Double(count)
        }
        return Int(total.rounded())
    }

    /// `count` tiles of `zoom` at evenly spaced positions in the coverage's order (all of its
    /// tiles when it has no more than `count`), found from its rectangles without listing them.
    static func evenlySpacedTiles(of coverage: TileCoverage, zoom: Int, count: Int) -> [TileID] {
        let total = coverage.count(zoom: zoom)
        guard total > 0, count > 0 else { return [] }
        let picks = min(count, total)
        // The middle of each of `picks` equal shares: positions are distinct and spread.
        var wanted = (0..<picks).map { (2 * $0 + 1) * total / (2 * picks) }[...]
        var tiles: [TileID] = []
        var before = 0
        for range in coverage.ranges(zoom: zoom) {
            let width = range.maxX - range.minX + 1
            while let position = wanted.first, position < before + range.count {
                let offset = position - before
                tiles.append(TileID(z: zoom, x: range.minX + offset % width, y: range.minY + offset / width))
                wanted.removeFirst()
            }
            before += range.count
        }
        return tiles
    }
}
