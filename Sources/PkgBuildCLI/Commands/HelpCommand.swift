/// `pkgbuild help [subcommand ...]`. Handled by `CommandRunner` itself because it needs the
/// whole command tree; this type only names it for help listings.
enum HelpCommand {
    static let name = "help"
    static let abstract = "Show subcommand help information."
}
