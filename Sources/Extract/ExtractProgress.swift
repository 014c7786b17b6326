/// The long steps of `create` and `estimate`, for a progress display.
public enum ExtractStage: String, Sendable {
    /// Feature rows read (estimate) or written (create); the total is not known in advance.
    case features
    /// Basemap tiles copied or downloaded, out of the coverage's count.
    case tiles
}

/// Called as a step advances: the step, items done, and the total (0 when unknown). May be
/// called from the thread doing the work, many times a second: keep it cheap.
public typealias ExtractProgress = @Sendable (_ stage: ExtractStage, _ done: Int, _ total: Int) -> Void
