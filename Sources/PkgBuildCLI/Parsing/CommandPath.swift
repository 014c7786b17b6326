/// The chain of commands from the root to the one being run: `pkgbuild source enable`.
struct CommandPath {
    var commands: [any Command.Type]

    init(root: any Command.Type) {
        commands = [root]
    }

    var current: any Command.Type { commands[commands.count - 1] }
    var configuration: CommandConfiguration { current.configuration }
    var root: CommandConfiguration { commands[0].configuration }
    var isRoot: Bool { commands.count == 1 }
    /// A group takes a subcommand rather than arguments, even while it has no children yet.
    var isGroup: Bool { current is any CommandGroup.Type || !configuration.subcommands.isEmpty }

    /// What the current command accepts: its own arguments and, for a command that runs
    /// (not a group), the options every command takes (`--quiet`, `--verbose`).
    var arguments: [ArgumentDefinition] {
        isGroup ? configuration.arguments : configuration.arguments + CommonOptions.all
    }

    /// The words that invoke it: `pkgbuild source enable`.
    var commandLine: String {
        commands.map { $0.configuration.name }.joined(separator: " ")
    }

    func appending(_ command: any Command.Type) -> CommandPath {
        var path = self
        path.commands.append(command)
        return path
    }

    /// The child of the current command called `name`, if any.
    func subcommand(named name: String) -> (any Command.Type)? {
        configuration.subcommands.first { $0.configuration.name == name }
    }
}
