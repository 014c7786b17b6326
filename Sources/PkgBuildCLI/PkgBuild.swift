import Foundation
import Geometry

/// The root command, `pkgbuild`, and the entry points of the executable and of tests.
///
/// Adding a command:
/// 1. A type conforming to `Command` in `Commands/<Name>Command.swift`: its `configuration`
///    declares name, abstract and arguments (`.option`, `.repeatingOption`, `.flag`,
///    `.positional`); `init(_:)` reads typed values (`try arguments.required("area",
///    as: String.self)`, `arguments.flag("dry-run")`, `try arguments.values("layer")`) and
///    throws `UsageError` for values that make no sense; `run(_:)` does the work,
///    synchronously.
/// 2. Add the type to `PkgBuild.subcommands`, or to a `CommandGroup`'s `subcommands`
///    (`source` holds `enable`, `status`, ...).
///
/// Output goes through the `CommandContext`: `print` for data (stdout), `printError` and
/// `warn` for diagnostics (stderr), `JSONValue` for `--json`, `TextTable` for tables,
/// `info` for lines that only confirm what was done (dropped by `--quiet`), `detail` for what
/// `--verbose` adds, `ProgressBar` or `StageProgress` for progress (drawn only on a terminal,
/// never under `--quiet`). Every command takes `--quiet` and `--verbose`. Long loops poll
/// `context.isCancelled` or call `try context.checkCancellation()` so Ctrl-C stops cleanly.
///
/// Errors: throw the module's own error for a failure (`Error: <description>`, exit 1);
/// conform an error to `ExitCodeProviding` for another code; throw `ExitCode.conflicts` to
/// end with 2 after printing a report. Usage errors exit 64 with the usage line.
///
/// Tests: `CLI.run(["tiles", "--area", "-170,52,-130,72", ...])` returns the exit code,
/// stdout and stderr.
public struct PkgBuild: CommandGroup {
    /// Every top-level subcommand. Later commands add their type here.
    public static let subcommands: [any Command.Type] = [
        TilesCommand.self, EstimateCommand.self, CreateCommand.self, InspectCommand.self, SourceCommand.self,
        SyncCommand.self, ConflictsCommand.self, ResolveCommand.self, ChangesCommand.self,
        IdentifyCommand.self, RelatedCommand.self, EditCommand.self, VerifyCommand.self, CompletionCommand.self,
    ]

    public static let configuration = CommandConfiguration(
        name: "pkgbuild",
        abstract: "Take a map area offline, and bring its edits home.",
        discussion: """
            Builds offline packages of basemap tiles (MBTiles) and feature layers \
            (GeoPackage) for an area of interest, and syncs field edits back to the source.

            Exit codes: 0 completed (edits a sync's direction leaves pending are reported, not \
            failures); 1 failed or refused; 2 a conflict is still unresolved; 3 verify found \
            divergence; 64 usage error; 130 interrupted.
            """,
        subcommands: subcommands,
        version: PkgBuildVersion.current)

    public init() {}

    /// The executable's entry point: runs `arguments` (without the program name) on the real
    /// stdout and stderr, with Ctrl-C turned into cancellation.
    /// - Returns: the process exit code.
    public static func main(arguments: [String]) -> Int32 {
        let interrupts = InterruptHandler()
        let context = CommandContext.process(cancellation: interrupts.cancellation)
        return withExtendedLifetime(interrupts) {
            CommandRunner.run(root: PkgBuild.self, arguments: arguments, context: context)
        }
    }
}

/// What an in-process run produced: the exit code and everything written.
public struct CLIResult: Sendable {
    public var exitCode: Int32
    public var stdout: String
    public var stderr: String
}

/// Runs commands in-process with captured output, the way tests drive the command line.
public enum CLI {
    /// Runs `arguments` (without the program name) against `root` and captures its output.
    ///
    /// ```swift
    /// let result = CLI.run(["tiles", "--area", "-170,52,-130,72", "out.pkg"])
    /// #expect(result.exitCode == 0)
    /// ```
    public static func run(_ arguments: [String], root: any Command.Type = PkgBuild.self,
                           environment: [String: String] = [:], isTerminal: Bool = false,
                           cancellation: Cancellation = Cancellation()) -> CLIResult {
        let stdout = CapturedOutput(), stderr = CapturedOutput()
        let context = CommandContext(stdout: stdout, stderr: stderr, isTerminal: isTerminal,
                                     environment: environment, cancellation: cancellation)
        let code = CommandRunner.run(root: root, arguments: arguments, context: context)
        return CLIResult(exitCode: code, stdout: stdout.text, stderr: stderr.text)
    }
}
