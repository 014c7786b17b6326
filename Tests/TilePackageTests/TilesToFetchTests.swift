import Testing
@testable import TilePackage

@Suite("Tiles to fetch by number")
struct TilesToFetchTests {
    @Test("every tile of every rectangle once, column by column from the bottom up, filtered")
    func orderAndFilter() throws {
        let ranges = [TileRange(z: 3, minX: 2, maxX: 3, minY: 4, maxY: 6),
                      TileRange(z: 3, minX: 5, maxX: 5, minY: 1, maxY: 1),
                      TileRange(z: 4, minX: 0, maxX: -1, minY: 0, maxY: 0)]  // empty
        let all = Array(TilesToFetch(ranges) { _ in true })
        #expect(all.map { "\($0.x)/\($0.y)" } == ["2/6", "2/5", "2/4", "3/6", "3/5", "3/4", "5/1"])
        #expect(all.allSatisfy { $0.z == 3 })
        // Bottom up is the TMS row counting up: the order of the MBTiles key.
        let keys = all.map { [$0.z, $0.x, $0.tmsY] }
        #expect(keys == keys.sorted { $0.lexicographicallyPrecedes($1) })

        let odd = TilesToFetch(ranges) { $0.y % 2 == 1 }
        #expect(Array(odd).map { "\($0.x)/\($0.y)" } == ["2/5", "3/5", "5/1"])
        try odd.rethrowFailure()
    }

    @Test("a failing filter ends the tiles and keeps its error")
    func failingFilter() {
        struct Unreadable: Error {}
        var seen = 0
        let tiles = TilesToFetch([TileRange(z: 2, minX: 0, maxX: 3, minY: 0, maxY: 3)]) { _ in
            seen += 1
            if seen == 3 { throw Unreadable() }
            return true
        }
        #expect(Array(tiles).count == 2)
        #expect(throws: Unreadable.self) { try tiles.rethrowFailure() }
    }
}
