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
    /// The columns of the terminals stdout and stderr are, nil for a pipe or file.
    public var stdoutColumns: Int?
    public var stderrColumns: Int?
    /// What `--quiet` / `--verbose` asked for; set by the runner before `run`.
    public var verbosity: Verbosity

    public init(stdout: any TextOutput, stderr: any TextOutput, isTerminal: Bool = false,
                environment: [String: String] = [:], cancellation: Cancellation = Cancellation(),
                stdoutColumns: Int? = nil, stderrColumns: Int? = nil, verbosity: Verbosity = .normal) {
        self.stdout = stdout
        self.stderr = stderr
        self.isTerminal = isTerminal
        self.environment = environment
        self.cancellation = cancellation
        self.stdoutColumns = stdoutColumns
        self.stderrColumns = stderrColumns
        self.verbosity = verbosity
    }

    /// The real process: stdout, stderr, its environment, and the given cancellation flag.
    public static func process(cancellation: Cancellation = Cancellation()) -> CommandContext {
        CommandContext(stdout: FileHandleOutput.standardOutput,
                       stderr: FileHandleOutput.standardError,
                       isTerminal: isatty(STDERR_FILENO) == 1,
                       environment: ProcessInfo.processInfo.environment,
                       cancellation: cancellation,
                       stdoutColumns: TerminalWidth.columns(of: STDOUT_FILENO),
                       stderrColumns: TerminalWidth.columns(of: STDERR_FILENO))
    }

    /// The width help and usage on stdout wrap to: COLUMNS, the terminal's, or 80.
    public var stdoutWidth: Int {
        TerminalWidth.resolve(environment: environment, terminalColumns: stdoutColumns)
    }

    /// The width of lines drawn on stderr, such as the progress bar.
    public var stderrWidth: Int {
        TerminalWidth.resolve(environment: environment, terminalColumns: stderrColumns)
    }

    /// Whether progress may be drawn: stderr is a terminal and `--quiet` was not given.
    public var showsProgress: Bool { isTerminal && verbosity > .quiet }

    /// Writes a line that says what was done (stdout), unless `--quiet`. Not for the result a
    /// command exists to show (a listing, a report asked for), nor for warnings or errors.
    public func info(_ line: String) {
        if verbosity > .quiet { print(line) }
    }

    /// Writes text (a table, several lines) that says what was done, unless `--quiet`.
    public func info(text: String) {
        if verbosity > .quiet { write(text) }
    }

    /// Writes a detail (stderr) only under `--verbose`: inputs as resolved, steps, times.
    public func detail(_ line: String) {
        if verbosity == .verbose { printError(line) }
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
