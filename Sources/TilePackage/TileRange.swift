/// A rectangle of tiles at one zoom, inclusive on all sides, rows numbered XYZ (from the north).
public struct TileRange: Sendable, Hashable, CustomStringConvertible {
    public var z: Int
    public var minX: Int
    public var maxX: Int
    public var minY: Int
    public var maxY: Int

    public init(z: Int, minX: Int, maxX: Int, minY: Int, maxY: Int) {
        self.z = z
        self.minX = minX
        self.maxX = maxX
        self.minY = minY
        self.maxY = maxY
    }

    /// The tiles at zoom `z` under `tile` (itself when `z == tile.z`). `z >= tile.z`.
    public init(descendantsOf tile: TileID, atZoom z: Int) {
        let shift = z - tile.z
        let side = 1 << shift
        self.init(z: z, minX: tile.x << shift, maxX: (tile.x << shift) + side - 1,
                  minY: tile.y << shift, maxY: (tile.y << shift) + side - 1)
    }

    public var isEmpty: Bool { maxX < minX || maxY < minY }

    /// The number of tiles in the rectangle.
    public var count: Int { isEmpty ? 0 : (maxX - minX + 1) * (maxY - minY + 1) }

    /// The rows as MBTiles stores them (TMS, counted from the south): `minTMSY...maxTMSY`.
    public var minTMSY: Int { (1 << z) - 1 - maxY }
    public var maxTMSY: Int { (1 << z) - 1 - minY }

    public func contains(_ t: TileID) -> Bool {
        t.z == z && t.x >= minX && t.x <= maxX && t.y >= minY && t.y <= maxY
    }

    public func intersection(_ other: TileRange) -> TileRange? {
        guard other.z == z else { return nil }
        let r = TileRange(z: z, minX: max(minX, other.minX), maxX: min(maxX, other.maxX),
                          minY: max(minY, other.minY), maxY: min(maxY, other.maxY))
        return r.isEmpty ? nil : r
    }

    /// This rectangle minus `other`, as at most four disjoint rectangles.
    public func subtracting(_ other: TileRange) -> [TileRange] {
        guard let cut = intersection(other) else { return isEmpty ? [] : [self] }
        var parts: [TileRange] = []
        // Full-width bands above and below the cut, then the pieces left and right of it.
        if cut.minY > minY { parts.append(TileRange(z: z, minX: minX, maxX: maxX, minY: minY, maxY: cut.minY - 1)) }
        if cut.maxY < maxY { parts.append(TileRange(z: z, minX: minX, maxX: maxX, minY: cut.maxY + 1, maxY: maxY)) }
        if cut.minX > minX { parts.append(TileRange(z: z, minX: minX, maxX: cut.minX - 1, minY: cut.minY, maxY: cut.maxY)) }
        if cut.maxX < maxX { parts.append(TileRange(z: z, minX: cut.maxX + 1, maxX: maxX, minY: cut.minY, maxY: cut.maxY)) }
        return parts
    }

    /// Calls `body` with every tile, row by row.
    public func forEach(_ body: (TileID) throws -> Void) rethrows {
        guard !isEmpty else { return }
        for y in minY...maxY {
            for x in minX...maxX { try body(TileID(z: z, x: x, y: y)) }
        }
    }

    /// Calls `body` with pieces of the rectangle of at most `maxTiles` tiles each, in bands
    /// of whole columns where they fit: MBTiles files index tiles by zoom, column, row, so
    /// each piece is one stretch of that index.
    public func forEachChunk(maxTiles: Int, _ body: (TileRange) throws -> Void) rethrows {
        guard !isEmpty else { return }
        let limit = max(1, maxTiles)
        let height = maxY - minY + 1
        if height <= limit {
            let width = limit / height
            var x = minX
            while x <= maxX {
                let last = min(maxX, x + width - 1)
                try body(TileRange(z: z, minX: x, maxX: last, minY: minY, maxY: maxY))
                x = last + 1
            }
        } else {
            for x in minX...maxX {
                var y = minY
                while y <= maxY {
                    let last = min(maxY, y + limit - 1)
                    try body(TileRange(z: z, minX: x, maxX: x, minY: y, maxY: last))
                    y = last + 1
                }
            }
        }
    }

    public var description: String { "z\(z) x \(minX)-\(maxX) y \(minY)-\(maxY)" }
}
