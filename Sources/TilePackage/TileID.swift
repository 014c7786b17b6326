/// One tile of the Web Mercator quadtree, numbered the XYZ ("slippy map") way: `x` grows
/// eastwards from the antimeridian, `y` grows southwards from the north edge.
///
/// MBTiles and TMS number rows the other way (from the south); `tmsY` and `init(z:x:tmsY:)`
/// convert.
public struct TileID: Sendable, Hashable, Comparable, CustomStringConvertible {
    public var z: Int
    public var x: Int
    public var y: Int

    /// The deepest zoom this module accepts: 2^30 tiles a side still fits every integer use.
    public static let maxZoom = 30

    /// A tile by XYZ numbers. Callers guarantee `0 <= x, y < 2^z`; `isValid` checks it.
    public init(z: Int, x: Int, y: Int) {
        self.z = z
        self.x = x
        self.y = y
    }

    /// A tile by TMS numbers (rows counted from the south, as MBTiles stores them).
    public init(z: Int, x: Int, tmsY: Int) {
        self.init(z: z, x: x, y: (1 << z) - 1 - tmsY)
    }

    /// The row counted from the south (TMS, MBTiles `tile_row`).
    public var tmsY: Int { (1 << z) - 1 - y }

    /// Whether the numbers name a tile that exists at its zoom.
    public var isValid: Bool {
        z >= 0 && z <= TileID.maxZoom && x >= 0 && y >= 0 && x < (1 << z) && y < (1 << z)
    }

    /// The tile one zoom up that contains this one; nil at zoom 0.
    public var parent: TileID? {
        z > 0 ? TileID(z: z - 1, x: x >> 1, y: y >> 1) : nil
    }

    /// The four tiles one zoom down, in mercantile's order (top-left, top-right,
    /// bottom-right, bottom-left).
    public var children: [TileID] {
        let cx = x << 1, cy = y << 1, cz = z + 1
        return [TileID(z: cz, x: cx, y: cy), TileID(z: cz, x: cx + 1, y: cy),
                TileID(z: cz, x: cx + 1, y: cy + 1), TileID(z: cz, x: cx, y: cy + 1)]
    }

    /// Orders by zoom, then column, then row: the order MBTiles' primary index keeps.
    public static func < (a: TileID, b: TileID) -> Bool {
        (a.z, a.x, a.y) < (b.z, b.x, b.y)
    }

    public var description: String { "\(z)/\(x)/\(y)" }
}
