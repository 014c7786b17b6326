/// A subcommand of `pkgbuild`.
///
/// A command states its arguments in `configuration`; the parser checks the command line
/// against them, then `init(_:)` reads the typed values and validates them (throwing
/// `UsageError` for anything wrong), and only then is `run(_:)` called. So a bad command
/// line never starts any work.
///
/// `run` is synchronous and may block for as long as the work takes (downloads, builds,
/// syncs); long loops poll `context.isCancelled` or call `context.checkCancellation()` so
/// that Ctrl-C stops them cleanly. Throwing from `run` prints `Error: <description>` and exits
/// with `ExitCode.failure`, or with the error's own code if it is `ExitCodeProviding`;
/// throwing an `ExitCode` ends with that code and prints nothing more.
///
/// Register a new top-level command by adding its type to `PkgBuild.subcommands`.
public protocol Command: Sendable {
    static var configuration: CommandConfiguration { get }
    /// Reads and validates the parsed arguments. Throw `UsageError` for a bad value.
    init(_ arguments: ParsedArguments) throws
    /// Does the work, writing data to `context.stdout` and diagnostics to `context.stderr`.
    func run(_ context: CommandContext) throws
}

/// A command that only groups subcommands (`pkgbuild source ...`). Invoked without a
/// subcommand it prints its help.
public protocol CommandGroup: Command {
    init()
}

extension CommandGroup {
    public init(_ arguments: ParsedArguments) { self.init() }
    public func run(_ context: CommandContext) throws {
        throw HelpRequest()
    }
}
