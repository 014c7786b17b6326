import Geometry
import Testing
import PkgBuildCLI

private let echoUsage = """
    Usage: pkgbuild echo <AREA.pkg> [<extra> ...] --area <bbox> [--at <lon,lat>]
      [--zoom <range>] [--concurrency <n>] [--layer <name> ...]
      [--header <K: V> ...] [--set <field=value> ...] [--output <path>] [--dry-run]
      [--json]
    """

/// What every usage error prints: the message, the usage line, and where to read more.
private func usageError(_ message: String, usage: String = echoUsage, command: String = "pkgbuild echo") -> String {
    "Error: \(message)\n\(usage)\n  See '\(command) --help' for more information.\n"
}

@Suite struct UsageErrorTests {
    @Test(arguments: [
        (["echo", "p.pkg", "--area", "1,2,3,4", "--nope"], "Unknown option '--nope'"),
        (["echo", "p.pkg", "--area", "1,2,3,4", "--nope=3"], "Unknown option '--nope'"),
        (["echo", "p.pkg", "--area", "1,2,3,4", "-x"], "Unknown option '-x'"),
        (["echo", "p.pkg", "--area"], "Missing value for '--area <bbox>'"),
        // (With --json there, the error is JSON: JSONErrorTests.)
        (["echo", "p.pkg", "--area", "--dry-run"], "Missing value for '--area <bbox>'"),
        (["echo", "p.pkg"], "Missing expected argument '--area <bbox>'"),
        (["echo", "--area", "1,2,3,4"], "Missing expected argument '<AREA.pkg>'"),
        (["echo", "p.pkg", "--area", "1,2,3,4", "--concurrency", "many"],
         "The value 'many' is invalid for '--concurrency <n>': expected an integer"),
        (["echo", "p.pkg", "--area", "1,2,3,4", "--concurrency", "2.5"],
         "The value '2.5' is invalid for '--concurrency <n>': expected an integer"),
        (["echo", "p.pkg", "--area", "1,2,3,4", "--concurrency", "0"],
         "--concurrency must be at least 1"),
        (["echo", "p.pkg", "--area", "1,2,3,4", "--json=yes"],
         "The flag '--json' does not take a value"),
    ])
    func echoUsageErrors(arguments: [String], message: String) {
        let result = CLI.run(arguments, root: TestRoot.self)
        #expect(result.exitCode == 64)
        #expect(result.stdout == "")
        #expect(result.stderr == usageError(message))
    }

    @Test func unexpectedPositional() {
        let result = CLI.run(["source", "status", "A", "B"], root: TestRoot.self)
        #expect(result.exitCode == 64)
        #expect(result.stderr == usageError("Unexpected argument 'B'",
                                            usage: "Usage: pkgbuild source status <SRC>",
                                            command: "pkgbuild source status"))
    }

    @Test(arguments: [
        (["nosuch"], "Unknown subcommand 'nosuch'", "pkgbuild"),
        (["--nope"], "Unknown option '--nope'", "pkgbuild"),
        (["source", "nosuch"], "Unknown subcommand 'nosuch'", "pkgbuild source"),
        (["help", "source", "nosuch"], "Unknown subcommand 'nosuch'", "pkgbuild source"),
    ])
    func unknownSubcommands(arguments: [String], message: String, command: String) {
        let result = CLI.run(arguments, root: TestRoot.self)
        #expect(result.exitCode == 64)
        #expect(result.stderr == usageError(message, usage: "Usage: \(command) <subcommand>", command: command))
    }

    @Test func domainErrorExitsOne() {
        let result = CLI.run(["fail", "--kind", "domain"], root: TestRoot.self)
        #expect(result.exitCode == 1)
        #expect(result.stderr == "Error: cannot open 'missing.gpkg': no such file\n")
    }

    @Test func errorsMayChooseTheirExitCode() {
        let result = CLI.run(["fail", "--kind", "conflicts"], root: TestRoot.self)
        #expect(result.exitCode == 2)
        #expect(result.stderr == "Error: 3 conflicts left unresolved\n")
    }

    @Test func thrownExitCodeIsSilent() {
        let result = CLI.run(["fail", "--kind", "silent"], root: TestRoot.self)
        #expect(result.exitCode == 2)
        #expect(result.stdout == "report\n")
        #expect(result.stderr == "")
    }

    @Test func cancellationExits130() {
        let cancellation = Cancellation()
        #expect(CLI.run(["fail", "--kind", "cancelled"], root: TestRoot.self,
                        cancellation: cancellation).exitCode == 0)
        cancellation.cancel()
        let result = CLI.run(["fail", "--kind", "cancelled"], root: TestRoot.self,
                             cancellation: cancellation)
        #expect(result.exitCode == 130)
        #expect(result.stderr == "Error: interrupted\n")
    }

    /// Ctrl-C seen by a module below the CLI: Swift's own error (tiles), Extract's (create,
    /// estimate). Both end with 130, as the CLI's own does.
    @Test(arguments: [("swift-cancelled", "Error: interrupted\n"),
                      ("extract-cancelled", "Error: cancelled; the work so far is kept\n")])
    func cancellationBelowTheCLIExits130(kind: String, message: String) {
        let result = CLI.run(["fail", "--kind", kind], root: TestRoot.self)
        #expect(result.exitCode == 130)
        #expect(result.stderr == message)
    }

    @Test func exitCodeValues() {
        #expect(ExitCode.success.rawValue == 0)
        #expect(ExitCode.failure.rawValue == 1)
        #expect(ExitCode.conflicts.rawValue == 2)
        #expect(ExitCode.usage.rawValue == 64)
    }
}
