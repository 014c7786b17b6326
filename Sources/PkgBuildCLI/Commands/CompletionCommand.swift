/// `pkgbuild completion bash|zsh|fish`: a completion script generated from the command tree.
import Geometry
struct CompletionCommand: Command {
    static let configuration = CommandConfiguration(
        name: "completion",
        abstract: "Print a shell completion script for subcommands, options and their values.",
        discussion: """
            The script is generated from the commands themselves, so it completes every \
            subcommand, option and option value this version has.

            bash: add 'source <(pkgbuild completion bash)' to ~/.bashrc.

            zsh: pkgbuild completion zsh > "${fpath[1]}/_pkgbuild", or source it after compinit.

            fish: pkgbuild completion fish > ~/.config/fish/completions/pkgbuild.fish
            """,
        arguments: [.positional("shell", values: CompletionShell.self, help: "The shell to complete in."),
                    .json("script (with the shell's name)")])

    let shell: CompletionShell
    let json: Bool

    init(_ arguments: ParsedArguments) throws {
        shell = try arguments.required("shell")
        json = arguments.flag("json")
    }

    func run(_ context: CommandContext) throws {
        let script = shell.script(root: PkgBuild.self)
        if json {
            context.print(JSONValue.object(["shell": .string(shell.rawValue), "script": .string(script)]).prettyPrinted)
        } else {
            context.write(script)
        }
    }
}
