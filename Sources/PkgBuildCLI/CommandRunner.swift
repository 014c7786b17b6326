import Foundation
import Geometry
import SQLite

/// Parses a command line against a command tree and runs the command it names, turning every
/// outcome into an exit code and text on the context's stdout or stderr.
public enum CommandRunner {
    /// Runs `arguments` (without the program name) against the tree under `root`.
    /// - Returns: the process exit code (see `ExitCode`).
    public static func run(root: any Command.Type, arguments: [String],
                           context: CommandContext) -> Int32 {
        CLISourceDrivers.register()
        var path = CommandPath(root: root)
        var index = 0

        // Walk down the groups: each word names a child until a leaf command is reached.
        while path.isGroup {
            guard index < arguments.count else {
                context.write(HelpGenerator.help(for: path, width: context.stdoutWidth))
                return ExitCode.success.rawValue
            }
            let token = arguments[index]
            index += 1
            if token == "-h" || token == "--help" {
                context.write(HelpGenerator.help(for: path, width: context.stdoutWidth))
                return ExitCode.success.rawValue
            }
            if path.isRoot, token == "--version", let version = path.configuration.version {
                context.print(version)
                return ExitCode.success.rawValue
            }
            if path.isRoot, token == HelpCommand.name {
                return showHelp(for: Array(arguments[index...]), root: path, context: context)
            }
            if let child = path.subcommand(named: token) {
                path = path.appending(child)
                continue
            }
            return report(UsageError(unknownWordMessage(token, path: path)), path: path, context: context,
                          as: .init(json: asksForJSON(arguments[index...]), inputs: []))
        }
        return runLeaf(path: path, arguments: Array(arguments[index...]), context: context)
    }

    /// Parses the leaf command's own arguments and runs it.
    private static func runLeaf(path: CommandPath, arguments: [String], context: CommandContext) -> Int32 {
        let command: any Command
        var context = context
        var errorForm = ErrorForm(json: asksForJSON(arguments[...]), inputs: [])
        let lockWait: LockWait
        do {
            let parsed = try ArgumentParser.parse(arguments, definitions: path.arguments)
            context.verbosity = try CommonOptions.verbosity(parsed)
            errorForm.inputs = ErrorReport.inputs(of: parsed)
            errorForm.hasLockTimeout = parsed.definitions.contains { $0.name == "lock-timeout" }
            lockWait = Self.lockWait(timeout: try lockTimeout(parsed), context: context)
            command = try path.current.init(parsed)
        } catch {
            return report(error, path: path, context: context, as: errorForm)
        }
        let started = ProgressBar.monotonicSeconds()
        defer {
            context.detail("\(path.commandLine): " + String(format: "%.2f s", ProgressBar.monotonicSeconds() - started))
        }
        do {
            try LockWait.$current.withValue(lockWait) { try command.run(context) }
            return ExitCode.success.rawValue
        } catch {
            return report(error, path: path, context: context, as: errorForm)
        }
    }

    /// How errors are printed: as text, or (under `--json`) as an ``ErrorReport`` naming the
    /// input at fault among the ones given.
    private struct ErrorForm {
        var json: Bool
        var inputs: [(name: String, value: String)]
        var hasLockTimeout = false
    }

    /// Whether `--json` is among the options, so that even a command line that does not parse
    /// gets its error as JSON. Tokens after `--` are values.
    private static func asksForJSON(_ arguments: ArraySlice<String>) -> Bool {
        arguments.prefix(while: { $0 != "--" }).contains("--json")
    }

    /// `pkgbuild help [subcommand ...]`: the help page of the named command.
    private static func showHelp(for names: [String], root: CommandPath,
                                 context: CommandContext) -> Int32 {
        var path = root
        // `help help` is the root's help page, which lists `help`.
        for name in names.drop(while: { $0 == HelpCommand.name }) {
            guard let child = path.subcommand(named: name) else {
                return reportUsageError(UsageError(unknownWordMessage(name, path: path)), path: path,
                                        context: context)
            }
            path = path.appending(child)
        }
        context.write(HelpGenerator.help(for: path, width: context.stdoutWidth))
        return ExitCode.success.rawValue
    }

    private static func report(_ error: any Error, path: CommandPath, context: CommandContext,
                               as form: ErrorForm = ErrorForm(json: false, inputs: [])) -> Int32 {
        // The modules below stop on Ctrl-C with Swift's own error: it ends with 130 like ours;
        // so does a wait for a lock that Ctrl-C cut short.
        let error = error is Swift.CancellationError
            || (context.isCancelled && describe(error).contains(SQLiteError.heldByAnotherProcess)) ? CancellationError() : error
        let code: ExitCode
        switch error {
        case is HelpRequest:
            context.write(HelpGenerator.help(for: path, width: context.stdoutWidth))
            return ExitCode.success.rawValue
        case let exitCode as ExitCode:
            // Already reported (a sync's report listing its conflicts).
            return exitCode.rawValue
        case let usageError as UsageError where !form.json:
            return reportUsageError(usageError, path: path, context: context)
        case let providing as any ExitCodeProviding:
            code = providing.exitCode
        default:
            code = .failure
        }
        var message = describe(error)
        let kind = ErrorKind.of(error, message: message)
        if kind == "locked" { message += lockHint(hasOption: form.hasLockTimeout) }
        if form.json {
            let report = ErrorReport(kind: kind, message: message,
                                     input: ErrorReport.input(named: message, among: form.inputs))
            context.printError(report.json.compact)
        } else {
            context.printError("Error: \(message)")
        }
        return code.rawValue
    }

    private static func reportUsageError(_ error: UsageError, path: CommandPath,
                                         context: CommandContext) -> Int32 {
        context.stderr.write(HelpGenerator.usageError(error.message, path: path, width: context.stderrWidth))
        return ExitCode.usage.rawValue
    }

    /// A word a group does not know: an unknown option or subcommand, with the nearest name.
    private static func unknownWordMessage(_ token: String, path: CommandPath) -> String {
        if ArgumentParser.looksLikeOption(token) {
            let name = String(token.split(separator: "=", maxSplits: 1)[0])
            let version = path.isRoot && path.configuration.version != nil ? [HelpGenerator.versionOption] : []
            return ArgumentParser.unknownOptionMessage(name, definitions: version)
        }
        var names = path.configuration.subcommands.map { $0.configuration.name }
        if path.isRoot { names.append(HelpCommand.name) }
        return Suggestion.message("Unknown subcommand '\(token)'", typed: token, among: names)
    }

    /// The words a person should see for an error: our errors describe themselves;
    /// Foundation's carry a localized description.
    static func describe(_ error: any Error) -> String {
        if let localized = error as? any LocalizedError, let description = localized.errorDescription {
            return description
        }
        return String(describing: error)
    }
}
