/// The command tree flattened for shell completion: one node per command, named by the words
/// that invoke it (`pkgbuild source enable`). Every completion script is generated from it, so
/// a new command or option completes without anyone editing a script.
struct CompletionTree {
    struct Option {
        /// `--direction`, and for a pair `--no-related` as a second name.
        var longNames: [String]
        /// `-o`
        var shortName: String?
        /// The option's value: nil for a flag; the words when it is a closed set; empty for
        /// anything else (a path, a number), which completes as a file name.
        var values: [String]?
        /// Help's first sentence, for shells that show descriptions.
        var summary: String
    }

    struct Node {
        /// `pkgbuild source enable`
        var path: String
        var subcommands: [(name: String, summary: String)]
        var options: [Option]
        /// The words a positional takes when it is a closed set (`completion <bash|zsh|fish>`);
        /// nil when positionals complete as file names, or when there are none.
        var positionalValues: [String]?
        var hasPositionals: Bool
    }

    var rootName: String
    var nodes: [Node]

    init(root: any Command.Type) {
        rootName = root.configuration.name
        nodes = []
        collect(CommandPath(root: root))
    }

    /// Every node that has children, for walking the words before the cursor.
    var groupPaths: [String] { nodes.filter { !$0.subcommands.isEmpty }.map(\.path) }

    private mutating func collect(_ path: CommandPath) {
        let configuration = path.configuration
        var subcommands = configuration.subcommands.map {
            (name: $0.configuration.name, summary: Self.summary($0.configuration.abstract))
        }
        if path.isRoot { subcommands.append((HelpCommand.name, Self.summary(HelpCommand.abstract))) }
        var definitions = path.arguments.filter { !$0.isPositional }
        if path.isRoot && configuration.version != nil { definitions.append(HelpGenerator.versionOption) }
        definitions.append(HelpGenerator.helpOption)
        let positionals = path.arguments.filter(\.isPositional)
        nodes.append(Node(path: path.commandLine, subcommands: subcommands,
                          options: definitions.map(Self.option),
                          positionalValues: positionals.first.flatMap { $0.allowedValues.isEmpty ? nil : $0.allowedValues },
                          hasPositionals: !positionals.isEmpty))
        for child in configuration.subcommands { collect(path.appending(child)) }
    }

    private static func option(_ definition: ArgumentDefinition) -> Option {
        let values: [String]? = definition.kind == .flag ? nil : definition.allowedValues
        return Option(longNames: definition.longNames, shortName: definition.short.map { "-\($0)" },
                      values: values, summary: summary(definition.help))
    }

    /// The first sentence, without its full stop: `Which way changes travel`.
    static func summary(_ help: String) -> String {
        let flat = help.split(whereSeparator: \.isNewline).joined(separator: " ")
        let sentence = flat.range(of: ". ").map { String(flat[..<$0.lowerBound]) } ?? flat
        return sentence.hasSuffix(".") ? String(sentence.dropLast()) : sentence
    }
}

/// The shells `pkgbuild completion` writes a script for.
public enum CompletionShell: String, CaseIterable, Sendable, ExpressibleByArgument {
    case bash, zsh, fish

    /// The script for this shell, generated from the command tree under `root`.
    func script(root: any Command.Type) -> String {
        let tree = CompletionTree(root: root)
        switch self {
        case .bash: return BashCompletion.script(tree)
        case .zsh: return ZshCompletion.script(tree)
        case .fish: return FishCompletion.script(tree)
        }
    }
}
