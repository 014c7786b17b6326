/// The options every command takes, declared once here so that no command can lack them or
/// word them differently. The parser adds them to each command's own; help lists them under
/// OPTIONS (not in the usage line, as with `--help`).
enum CommonOptions {
    static let quiet = ArgumentDefinition.flag(
        "quiet", short: "q", help: "Print only results, warnings and errors; no progress.")
    static let verbose = ArgumentDefinition.flag(
        "verbose", short: "v", help: "Also print details: inputs as resolved, steps, times.")

    static let all = [quiet, verbose]

    /// The verbosity a command line asked for.
    /// - Throws: `UsageError` for `--quiet` with `--verbose`.
    static func verbosity(_ arguments: ParsedArguments) throws -> Verbosity {
        switch (arguments.flag(quiet.name), arguments.flag(verbose.name)) {
        case (true, true): throw UsageError("--quiet and --verbose cannot be used together")
        case (true, false): return .quiet
        case (false, true): return .verbose
        case (false, false): return .normal
        }
    }
}

/// How much a command says besides its result.
public enum Verbosity: Int, Sendable, Comparable {
    /// Errors, warnings and the result only.
    case quiet
    /// Also progress on a terminal and the lines that say what was done.
    case normal
    /// Also the details: inputs as resolved, steps, times.
    case verbose

    public static func < (lhs: Verbosity, rhs: Verbosity) -> Bool { lhs.rawValue < rhs.rawValue }
}
