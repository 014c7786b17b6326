/// Quoting for the words completion scripts embed: command names, option names, values and
/// help summaries, all ours, but help text has apostrophes and may gain anything.
enum ShellWords {
    /// `"text"` for bash and zsh, with `\`, `"`, `$` and backquotes escaped.
    static func doubleQuoted(_ text: String) -> String {
        var quoted = "\""
        for character in text {
            if "\\\"$`".contains(character) { quoted.append("\\") }
            quoted.append(character)
        }
        return quoted + "\""
    }

    /// `'text'` for fish, where only `\` and `'` need a backslash inside single quotes.
    static func fishQuoted(_ text: String) -> String {
        var quoted = "'"
        for character in text {
            if character == "\\" || character == "'" { quoted.append("\\") }
            quoted.append(character)
        }
        return quoted + "'"
    }

    /// A name usable in a shell function's name: `pkgbuild` stays, anything else becomes `_`.
    static func identifier(_ name: String) -> String {
        String(name.map { $0.isLetter || $0.isNumber ? $0 : "_" })
    }
}
