/// The process exit codes of `pkgbuild`, the same for every command.
///
/// `ExitCode` is also an `Error`: a command that has already reported what happened (a sync
/// report listing its conflicts, say) throws `ExitCode.conflicts` to end with that code and no
/// further message, the way swift-argument-parser's `ExitCode` works.
public enum ExitCode: Int32, Error, Sendable, CaseIterable {
    /// The work was done.
    case success = 0
    /// The work failed or was refused: a missing file, bad data, a limit that would be exceeded.
    case failure = 1
    /// A sync finished but stopped on conflicts its policy left unresolved.
    case conflicts = 2
    /// `verify` found a difference between a package and its source that no recorded change
    /// explains.
    case divergent = 3
    /// The command line itself was wrong: unknown option, missing or malformed value.
    case usage = 64
    /// The user interrupted the work (Ctrl-C); 128 + SIGINT, as shells report it.
    case interrupted = 130
}

/// An error that decides its own exit code instead of the default `ExitCode.failure`.
public protocol ExitCodeProviding: Error {
    /// The code the process ends with when a command throws this error.
    var exitCode: ExitCode { get }
}
