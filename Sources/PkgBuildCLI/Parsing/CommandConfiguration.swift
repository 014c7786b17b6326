/// What a command is called, what it does, and what it accepts: everything help text, usage
/// lines and the parser are generated from.
public struct CommandConfiguration: Sendable {
    /// The word on the command line (`tiles`, `enable`).
    public var name: String
    /// One sentence for OVERVIEW and for the parent's SUBCOMMANDS list.
    public var abstract: String
    /// Further paragraphs shown under OVERVIEW; blank lines separate paragraphs.
    public var discussion: String
    public var arguments: [ArgumentDefinition]
    /// Child commands, for a command group such as `source`. A group takes no arguments of
    /// its own: the first word after it names the child.
    public var subcommands: [any Command.Type]
    /// Shown by `--version`; only the root command sets it.
    public var version: String?

    public init(name: String, abstract: String, discussion: String = "",
                arguments: [ArgumentDefinition] = [], subcommands: [any Command.Type] = [],
                version: String? = nil) {
        self.name = name
        self.abstract = abstract
        self.discussion = discussion
        self.arguments = arguments
        self.subcommands = subcommands
        self.version = version
    }
}
