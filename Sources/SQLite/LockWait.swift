import Foundation

/// How long connections wait for a lock another process holds (a sync, an editor, sqlite3),
/// and who hears that they are waiting. A command line sets it for the work it runs
/// (`LockWait.$current.withValue(...)`); every connection opened on that thread with a busy
/// timeout of its own then waits `timeout` instead, and tells `onWait` once when a wait has
/// lasted half a second.
public struct LockWait: Sendable {
    /// Seconds to wait, in place of each connection's own busy timeout; nil keeps theirs.
    public var timeout: Double?
    /// Called (on the waiting thread) with the database's path and the seconds it will wait.
    public var onWait: (@Sendable (_ path: String, _ limit: Double) -> Void)?
    /// Polled while waiting: once true (Ctrl-C), the wait ends at once with `SQLITE_BUSY`.
    public var isCancelled: (@Sendable () -> Bool)?

    public init(timeout: Double? = nil, isCancelled: (@Sendable () -> Bool)? = nil,
                onWait: (@Sendable (_ path: String, _ limit: Double) -> Void)? = nil) {
        self.timeout = timeout
        self.isCancelled = isCancelled
        self.onWait = onWait
    }

    /// The policy in force; none by default.
    @TaskLocal public static var current = LockWait()
}

/// The busy handler of one connection: SQLite calls it each time a lock it needs is held,
/// with a count that restarts at 0 for each new wait. It sleeps with SQLite's own back-off and
/// gives up when the wait has lasted the timeout.
final class BusyWaiter {
    var timeout: Double
    let path: String
    let onWait: (@Sendable (_ path: String, _ limit: Double) -> Void)?
    let isCancelled: (@Sendable () -> Bool)?
    private var started = Date()
    private var announced = false

    init(timeout: Double, path: String, policy: LockWait) {
        self.timeout = timeout
        self.path = path
        onWait = policy.onWait
        isCancelled = policy.isCancelled
    }

    /// The C callback; `userdata` is an unretained `BusyWaiter` the connection keeps alive.
    static let callback: @convention(c) (UnsafeMutableRawPointer?, Int32) -> Int32 = { userdata, count in
        guard let userdata else { return 0 }
        return Unmanaged<BusyWaiter>.fromOpaque(userdata).takeUnretainedValue().retry(count) ? 1 : 0
    }

    private static let delays = [0.001, 0.002, 0.005, 0.01, 0.015, 0.02, 0.025, 0.025, 0.025, 0.05, 0.05]

    private func retry(_ count: Int32) -> Bool {
        let now = Date()
        if count == 0 { started = now }
        let waited = now.timeIntervalSince(started)
        guard waited < timeout, isCancelled?() != true else { return false }
        if !announced && waited >= 0.5 {
            // Once per connection: a sync waits on many statements, a person needs one line.
            announced = true
            onWait?(path, timeout)
        }
        let delay = min(Int(count) < Self.delays.count ? Self.delays[Int(count)] : 0.1, timeout - waited)
        Thread.sleep(forTimeInterval: max(delay, 0))
        return true
    }
}
