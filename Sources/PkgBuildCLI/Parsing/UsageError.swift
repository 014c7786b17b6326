/// A command line that does not fit the command: an unknown option, a missing or malformed
/// value, a failed validation. Printed as `Error: <message>`, the usage line and a pointer to
/// `--help`; the process exits with `ExitCode.usage` (64).
///
/// Commands throw it from `init(_:)` for values that parse but make no sense
/// (`--concurrency 0`, a zoom range whose minimum exceeds its maximum).
public struct UsageError: Error, Sendable, Hashable, CustomStringConvertible, ExitCodeProviding {
    public var message: String

    public init(_ message: String) {
        self.message = message
    }

    public var description: String { message }
    public var exitCode: ExitCode { .usage }
}

/// Thrown to show help instead of running: `-h`, `--help`, or a group without a subcommand.
struct HelpRequest: Error {}
