import Testing
import TilePackage

@Suite struct ZoomListTests {
    @Test(arguments: [
        ([Int](), ""),
        ([3], "3"),
        ([0, 1, 2, 3, 4, 5, 7], "0-5, 7"),
        ([7, 5, 4, 0, 1, 2, 3, 9, 10, 10], "0-5, 7, 9-10"),
        ([2, 4, 6], "2, 4, 6"),
    ])
    func runsOfConsecutiveZoomsAreJoined(zooms: [Int], text: String) {
        #expect(ZoomList.text(zooms) == text)
    }
}
