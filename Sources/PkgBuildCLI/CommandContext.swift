import Foundation

/// Everything a command may touch outside its arguments: where output goes, whether a person
/// is watching stderr, the environment, and the Ctrl-C flag. Tests build one around
/// `CapturedOutput` buffers; the executable builds one around the real process.
public struct CommandContext: Sendable {
    /// Data: the command's results, `--json` documents, tables.
    public var stdout: any TextOutput
    /// Diagnostics: progress, warnings, errors.
    public var stderr: any TextOutput
    /// Whether stderr is a terminal; progress bars draw only when it is.
    public var isTerminal: Bool
    public var environment: [String: String]
    public var cancellation: Cancellation

    public init(stdout: any TextOutput, stderr: any TextOutput, isTerminal: Bool = false,
                environment: [String: String] = [:], cancellation: Cancellation = Cancellation()) {
        self.stdout = stdout
        self.stderr = stderr
        self.isTerminal = isTerminal
        self.environment = environment
        self.cancellation = cancellation
    }

    /// The real process: stdout, stderr, its environment, and the given cancellation flag.
    public static func process(cancellation: Cancellation = Cancellation()) -> CommandContext {
        CommandContext(stdout: FileHandleOutput.standardOutput,
                       stderr: FileHandleOutput.standardError,
                       isTerminal: isatty(STDERR_FILENO) == 1,
                       environment: ProcessInfo.processInfo.environment,
                       cancellation: cancellation)
    }

    /// Writes text to stdout as is.
    public func write(_ text: String) {
        stdout.write(text)
    }

    /// Writes a line to stdout.
    public func print(_ line: String) {
        stdout.write(line + "\n")
    }

    /// Writes a line to stderr.
    public func printError(_ line: String) {
        stderr.write(line + "\n")
    }

    /// Writes `Warning: <message>` to stderr.
    public func warn(_ message: String) {
        stderr.write("Warning: \(message)\n")
    }

    /// Whether the user has pressed Ctrl-C.
    public var isCancelled: Bool { cancellation.isCancelled }

    /// Throws `CancellationError` once the user has pressed Ctrl-C.
    public func checkCancellation() throws {
        if cancellation.isCancelled { throw CancellationError() }
    }
}
