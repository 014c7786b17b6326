import Dispatch
import Foundation

/// A flag that long-running work polls to stop early; set once, never cleared.
public final class Cancellation: @unchecked Sendable {
    private let lock = NSLock()
    private var cancelled = false

    public init() {}

    public var isCancelled: Bool {
        lock.withLock { cancelled }
    }

    public func cancel() {
        lock.withLock { cancelled = true }
    }
}

/// Thrown by `CommandContext.checkCancellation()` after Ctrl-C; exits with
/// `ExitCode.interrupted` (130).
public struct CancellationError: Error, Sendable, CustomStringConvertible, ExitCodeProviding {
    /// What the interrupted work left behind, for the person who pressed Ctrl-C.
    public var message: String
    public init(_ message: String = "interrupted") { self.message = message }
    public var description: String { message }
    public var exitCode: ExitCode { .interrupted }
}

/// Turns SIGINT (Ctrl-C) into a `Cancellation` so commands can stop cleanly: finish the item
/// at hand, commit or roll back, and return. A second Ctrl-C ends the process at once with
/// exit code 130, for work that does not poll.
///
/// The signal is handled by a `DispatchSource` on its own queue, not by a C signal handler,
/// so the Swift code that runs is not limited to async-signal-safe calls.
public final class InterruptHandler: @unchecked Sendable {
    public let cancellation = Cancellation()
    private let source: any DispatchSourceSignal
    private let queue = DispatchQueue(label: "pkgbuild.sigint")

    /// Installs the handler for the life of the returned object.
    /// - Important: one per process; it replaces SIGINT's default disposition.
    public init() {
        // Ignore the default action so that only the dispatch source sees the signal.
        signal(SIGINT, SIG_IGN)
        source = DispatchSource.makeSignalSource(signal: SIGINT, queue: queue)
        let cancellation = self.cancellation
        source.setEventHandler {
            if cancellation.isCancelled {
                exit(ExitCode.interrupted.rawValue)
            }
            cancellation.cancel()
        }
        // resume() registers the source asynchronously; a signal arriving before that is lost
        // (its disposition is SIG_IGN), so wait until the source is listening.
        let registered = DispatchSemaphore(value: 0)
        source.setRegistrationHandler { registered.signal() }
        source.resume()
        registered.wait()
    }

    deinit {
        source.cancel()
        signal(SIGINT, SIG_DFL)
    }
}
