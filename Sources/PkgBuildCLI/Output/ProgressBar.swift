import Dispatch
import Foundation

/// A one-line progress bar on stderr: `tiles [#####.....]  512/1024  50%  87/s  ETA 0:06`.
///
/// Draws only when `context.showsProgress` (stderr is a terminal and `--quiet` was not given),
/// and is silent otherwise, so logs and pipes get no carriage-return noise. Redraws at most ten times a second however
/// often it is advanced. Safe to advance from several threads.
public final class ProgressBar: @unchecked Sendable {
    private let label: String
    private var total: Int
    private let output: any TextOutput
    private let isEnabled: Bool
    private let width: Int
    private let now: @Sendable () -> Double
    private let start: Double
    private let lock = NSLock()
    private var done = 0
    private var lastDraw: Double = -.infinity
    private var finished = false

    /// - Parameters:
    ///   - label: a word saying what is counted (`tiles`, `features`).
    ///   - total: the count at completion; 0 or less draws no bar or ETA, only the count.
    ///   - clock: seconds on a monotonic clock; tests pass their own.
    public init(label: String, total: Int, context: CommandContext,
                clock: @escaping @Sendable () -> Double = ProgressBar.monotonicSeconds) {
        self.label = label
        self.total = total
        self.output = context.stderr
        self.isEnabled = context.showsProgress
        self.width = context.stderrWidth
        self.now = clock
        self.start = clock()
    }

    /// Counts `count` more items done.
    public func advance(by count: Int = 1) {
        lock.withLock {
            done += count
            drawIfDue(force: false)
        }
    }

    /// Sets the number of items done.
    public func update(done: Int) {
        lock.withLock {
            self.done = done
            drawIfDue(force: false)
        }
    }

    /// Sets the number of items done and the total, for work whose size is learnt as it goes.
    public func update(done: Int, total: Int) {
        lock.withLock {
            self.done = done
            self.total = total
            drawIfDue(force: false)
        }
    }

    /// Draws the final state and ends the line. Further calls do nothing.
    public func finish() {
        lock.withLock {
            guard !finished else { return }
            drawIfDue(force: true)
            finished = true
            if isEnabled { output.write("\n") }
        }
    }

    private func drawIfDue(force: Bool) {
        guard isEnabled, !finished else { return }
        let time = now()
        guard force || time - lastDraw >= 0.1 else { return }
        lastDraw = time
        // \r returns to the line's start; ESC[K clears what a longer earlier line left.
        output.write("\r" + Self.line(label: label, done: done, total: total,
                                      elapsed: time - start, width: width) + "\u{1B}[K")
    }

    /// The bar's text for a state; pure, so tests can check it.
    public static func line(label: String, done: Int, total: Int, elapsed: Double,
                            width: Int = 80) -> String {
        let rate = elapsed > 0 ? Double(done) / elapsed : 0
        var counts = total > 0 ? "\(done)/\(total)" : "\(done)"
        if total > 0 {
            let percent = Int((Double(min(done, total)) / Double(total) * 100).rounded(.down))
            counts += "  \(percent)%"
        }
        counts += "  \(formatRate(rate))/s"
        if total > 0 {
            if done >= total {
                counts += "  \(formatDuration(elapsed))"
            } else if rate > 0 {
                counts += "  ETA \(formatDuration(Double(total - done) / rate))"
            } else {
                counts += "  ETA --:--"
            }
        }
        guard total > 0 else { return "\(label)  \(counts)" }
        // One column short of the width: a line that fills it makes some terminals wrap.
        let barWidth = width - label.count - counts.count - 6
        guard barWidth >= 10 else { return "\(label)  \(counts)" }
        let filled = Int(Double(barWidth) * Double(min(done, total)) / Double(total))
        let bar = String(repeating: "#", count: filled) + String(repeating: ".", count: barWidth - filled)
        return "\(label) [\(bar)]  \(counts)"
    }

    /// `0.5`, `87`, `12.3k`, `4.1M`.
    static func formatRate(_ rate: Double) -> String {
        switch rate {
        case ..<10: return String(format: "%.1f", rate)
        case ..<10_000: return String(Int(rate.rounded()))
        case ..<999_950: return String(format: "%.1fk", rate / 1_000)
        default: return String(format: "%.1fM", rate / 1_000_000)
        }
    }

    /// `0:06`, `12:34`, `1:02:03`.
    static func formatDuration(_ seconds: Double) -> String {
        guard seconds.isFinite, seconds < 360_000 else { return "--:--" }
        let total = Int(seconds.rounded())
        let (hours, minutes, secs) = (total / 3600, total / 60 % 60, total % 60)
        return hours > 0
            ? String(format: "%d:%02d:%02d", hours, minutes, secs)
            : String(format: "%d:%02d", minutes, secs)
    }

    /// Seconds since an arbitrary start, from the monotonic clock.
    @Sendable public static func monotonicSeconds() -> Double {
        Double(DispatchTime.now().uptimeNanoseconds) / 1e9
    }
}
