/// The long steps of `create` and `estimate`, for a progress display.
public enum ExtractStage: String, Sendable {
    /// Tiles of a polygon's quadtree tested against the area, out of those known so far (a
    /// box is counted in closed form and reports nothing).
    case planning = "planning tiles"
    /// Tiles fetched (HTTP) or zooms summed (MBTiles) to estimate the basemap's bytes.
    case sampling = "sampling tile sizes"
    /// Feature rows read (estimate) or written (create); the total is not known in advance.
    case features
    /// Basemap tiles copied or downloaded, out of the coverage's count.
    case tiles
}

/// Called as a step advances: the step, items done, and the total (0 when unknown). May be
/// called from the thread doing the work, many times a second: keep it cheap.
public typealias ExtractProgress = @Sendable (_ stage: ExtractStage, _ done: Int, _ total: Int) -> Void
