import Foundation

/// Progress of a job made of steps one after the other (features, then tiles): one
/// `ProgressBar` per step, the previous one finished when the next starts. Like the bar, it
/// draws only on a terminal and never under `--quiet`. Safe to report from several threads.
public final class StageProgress: @unchecked Sendable {
    private let context: CommandContext
    private let lock = NSLock()
    private var stage: String?
    private var bar: ProgressBar?

    public init(context: CommandContext) {
        self.context = context
    }

    /// Reports `done` of `total` items of the step called `label` (0 for an unknown total; a
    /// total may grow as the step learns its size, as the tile plan's walk does).
    public func report(_ label: String, done: Int, total: Int) {
        guard context.showsProgress else { return }
        lock.withLock {
            if stage != label {
                bar?.finish()
                stage = label
                bar = ProgressBar(label: label, total: total, context: context)
            }
            bar?.update(done: done, total: total)
        }
    }

    /// Ends the current step's line. Call it before printing anything else to stderr.
    public func finish() {
        lock.withLock {
            bar?.finish()
            bar = nil
            stage = nil
        }
    }
}
