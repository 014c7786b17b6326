/// The tiles of some rectangles that a filter keeps, generated one at a time as they are
/// pulled, so that a copy can hand a whole coverage to a source in one call while memory
/// holds only the rectangles.
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
        /// The position of the next tile to look at: rectangle, row, column.
        var rangeIndex = 0
        var y = 0
        var x = 0

        init(_ owner: TilesToFetch) {
            self.owner = owner
            if let first = owner.ranges.first { (y, x) = (first.minY, first.minX) }
        }

        mutating func next() -> TileID? {
            while owner.failure == nil, rangeIndex < owner.ranges.count {
                let range = owner.ranges[rangeIndex]
                let tile = TileID(z: range.z, x: x, y: y)
                // Row by row, then on to the next rectangle.
                if x < range.maxX {
                    x += 1
                } else if y < range.maxY {
                    (x, y) = (range.minX, y + 1)
                } else {
                    rangeIndex += 1
                    if rangeIndex < owner.ranges.count { (y, x) = (owner.ranges[rangeIndex].minY, owner.ranges[rangeIndex].minX) }
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
