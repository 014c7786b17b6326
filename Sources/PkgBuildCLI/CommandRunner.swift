import Foundation

/// Parses a command line against a command tree and runs the command it names, turning every
/// outcome into an exit code and text on the context's stdout or stderr.
public enum CommandRunner {
    /// Runs `arguments` (without the program name) against the tree under `root`.
    /// - Returns: the process exit code (see `ExitCode`).
    public static func run(root: any Command.Type, arguments: [String],
                           context: CommandContext) -> Int32 {
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
            return reportUsageError(UsageError(unknownWordMessage(token, path: path)), path: path,
                                    context: context)
        }

        let command: any Command
        var context = context
        do {
            let parsed = try ArgumentParser.parse(Array(arguments[index...]), definitions: path.arguments)
            context.verbosity = try CommonOptions.verbosity(parsed)
            command = try path.current.init(parsed)
        } catch {
            return report(error, path: path, context: context)
        }
        let started = ProgressBar.monotonicSeconds()
        defer {
            context.detail("\(path.commandLine): " + String(format: "%.2f s", ProgressBar.monotonicSeconds() - started))
        }
        do {
            try command.run(context)
            return ExitCode.success.rawValue
        } catch {
            return report(error, path: path, context: context)
        }
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

    private static func report(_ error: any Error, path: CommandPath,
                               context: CommandContext) -> Int32 {
        // The modules below stop on Ctrl-C with Swift's own error: it ends with 130 like ours.
        let error = error is Swift.CancellationError ? CancellationError() : error
        switch error {
        case is HelpRequest:
            context.write(HelpGenerator.help(for: path, width: context.stdoutWidth))
            return ExitCode.success.rawValue
        case let usageError as UsageError:
            return reportUsageError(usageError, path: path, context: context)
        case let exitCode as ExitCode:
            return exitCode.rawValue
        case let providing as any ExitCodeProviding:
            context.printError("Error: \(describe(error))")
            return providing.exitCode.rawValue
        default:
            context.printError("Error: \(describe(error))")
            return ExitCode.failure.rawValue
        }
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
