/// The tiles of some rectangles that a filter keeps, generated one at a time as they are
/// pulled, so that a copy can hand a whole coverage to a source in one call while memory
/// holds only the rectangles.
///
/// Column by column, each from the bottom up: the order of the MBTiles key (zoom, column,
/// TMS row) and of the image ids derived from it, so that the answers (which come back in
/// about the order asked) are appended to the writer's tables rather than inserted all over
/// them, where every full page would be split.
///
/// The filter may throw (it reads the work file); the iteration then ends early and the
/// error waits in `rethrowFailure()`, which the caller must call once the source returns.
/// - Important: iterate once, from one thread.
final class TilesToFetch: Sequence {
    private let ranges: [TileRange]
    private let keep: (TileID) throws -> Bool
    private var failure: (any Error)?

    init(_ ranges: [TileRange], keep: @escaping (TileID) throws -> Bool) {
        self.ranges = ranges.filter { !$0.isEmpty }
        self.keep = keep
    }

    /// Throws what the filter threw, if it did.
    func rethrowFailure() throws {
        if let failure { throw failure }
    }

    struct Iterator: IteratorProtocol {
        let owner: TilesToFetch
        /// The position of the next tile to look at: rectangle, column, row (XYZ, counting
        /// down, which is the TMS row counting up).
        var rangeIndex = 0
        var x = 0
        var y = 0

        init(_ owner: TilesToFetch) {
            self.owner = owner
            if let first = owner.ranges.first { (x, y) = (first.minX, first.maxY) }
        }

        mutating func next() -> TileID? {
            while owner.failure == nil, rangeIndex < owner.ranges.count {
                let range = owner.ranges[rangeIndex]
                let tile = TileID(z: range.z, x: x, y: y)
                // Up a column, then on to the next column, then to the next rectangle.
                if y > range.minY {
                    y -= 1
                } else if x < range.maxX {
                    (x, y) = (x + 1, range.maxY)
                } else {
                    rangeIndex += 1
                    if rangeIndex < owner.ranges.count { (x, y) = (owner.ranges[rangeIndex].minX, owner.ranges[rangeIndex].maxY) }
                }
                do {
                    if try owner.keep(tile) { return tile }
                } catch {
                    owner.failure = error
                }
            }
            return nil
        }
    }

    func makeIterator() -> Iterator { Iterator(self) }
}
