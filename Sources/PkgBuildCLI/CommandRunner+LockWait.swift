import SQLite

/// `--lock-timeout` and the wait for a database another process holds: every connection the
/// command opens waits that long, says on a terminal (never in a pipe) which file it is
/// waiting for, and gives up with an error naming the file.
extension CommandRunner {
    /// The `--lock-timeout` of a command that declares it.
    /// - Throws: `UsageError` for a negative or non-numeric value.
    static func lockTimeout(_ parsed: ParsedArguments) throws -> Double? {
        guard parsed.definitions.contains(where: { $0.name == "lock-timeout" }) else { return nil }
        guard let seconds = try parsed.value("lock-timeout", as: Double.self), seconds >= 0, seconds.isFinite else {
            throw UsageError("--lock-timeout must be a number of seconds, 0 or more")
        }
        return seconds
    }

    /// The policy a command runs under: its `--lock-timeout`, and on a terminal a line on
    /// stderr when a wait begins.
    static func lockWait(timeout: Double?, context: CommandContext) -> LockWait {
        let cancellation = context.cancellation
        let isCancelled: @Sendable () -> Bool = { cancellation.isCancelled }
        guard context.isTerminal else { return LockWait(timeout: timeout, isCancelled: isCancelled) }
        let stderr = context.stderr
        return LockWait(timeout: timeout, isCancelled: isCancelled) { path, limit in
            stderr.write("Waiting for \(path): another process holds it (giving up after \(Self.seconds(limit)) s; "
                + "--lock-timeout SECONDS to change)...\n")
        }
    }

    /// What a person can do about a lock that was not let go, added to the error's words.
    static func lockHint(hasOption: Bool) -> String {
        hasOption ? "; run it again when the other process is done, or wait longer with --lock-timeout SECONDS"
            : "; run it again when the other process is done"
    }

    static func seconds(_ value: Double) -> String {
        value == value.rounded() && value < 1e9 ? String(Int(value)) : String(value)
    }
}
