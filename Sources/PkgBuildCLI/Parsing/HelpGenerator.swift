/// Help text, usage lines and usage-error messages, generated from the declarations so they
/// cannot drift from what the parser accepts.
///
/// Text is wrapped to `width` columns: the terminal's (see `TerminalWidth`), 80 in a pipe.
enum HelpGenerator {
    static let defaultWidth = 80
    /// Column where an entry's help starts; a longer label puts the help on the next line.
    static let helpColumn = 26

    static let helpOption = ArgumentDefinition.flag("help", short: "h", help: "Show help information.")
    static let versionOption = ArgumentDefinition.flag("version", help: "Show the version.")

    /// The full help page of a command.
    static func help(for path: CommandPath, width: Int = defaultWidth) -> String {
        let configuration = path.configuration
        var sections: [String] = []

        var overview = TextWrapping.wrap(words(configuration.abstract), width: width,
                                         firstPrefix: "OVERVIEW: ", indent: 2)
        if !configuration.discussion.isEmpty {
            overview += "\n\n" + TextWrapping.wrapParagraphs(configuration.discussion, width: width)
        }
        sections.append(overview)
        sections.append(usage(for: path, prefix: "USAGE: ", width: width))

        let positionals = configuration.arguments.filter(\.isPositional)
        if !positionals.isEmpty {
            sections.append("ARGUMENTS:\n" + positionals.map { entry($0, width: width) }.joined(separator: "\n"))
        }

        var options = path.arguments.filter { !$0.isPositional }
        if path.isRoot && configuration.version != nil { options.append(versionOption) }
        options.append(helpOption)
        sections.append("OPTIONS:\n" + options.map { entry($0, width: width) }.joined(separator: "\n"))

        if path.isGroup {
            var list = configuration.subcommands.map { command in
                entry(label: command.configuration.name, help: command.configuration.abstract, width: width)
            }
            if path.isRoot { list.append(entry(label: "help", help: HelpCommand.abstract, width: width)) }
            let rootName = path.root.name
            let helpHint = path.isRoot
                ? "See '\(rootName) help <subcommand>' for detailed help."
                : "See '\(rootName) help \(path.commands.dropFirst().map { $0.configuration.name }.joined(separator: " ")) <subcommand>' for detailed help."
            sections.append("SUBCOMMANDS:\n" + list.joined(separator: "\n") + "\n\n"
                            + TextWrapping.wrap(words(helpHint), width: width, firstPrefix: "  ", indent: 2))
        }
        return sections.joined(separator: "\n\n") + "\n"
    }

    /// `USAGE: pkgbuild tiles --area <bbox> [--zoom <range>] <package>`, wrapped.
    static func usage(for path: CommandPath, prefix: String, width: Int = defaultWidth) -> String {
        var units = [path.commandLine]
        let configuration = path.configuration
        if path.isGroup {
            units.append("<subcommand>")
        } else {
            units += configuration.arguments.map(usageUnit)
        }
        return TextWrapping.wrap(units, width: width, firstPrefix: prefix, indent: 2)
    }

    /// What a usage error prints: the message, the usage line, where to read more.
    static func usageError(_ message: String, path: CommandPath, width: Int = defaultWidth) -> String {
        var text = "Error: \(message)\n"
        text += usage(for: path, prefix: "Usage: ", width: width) + "\n"
        text += "  See '\(path.commandLine) --help' for more information.\n"
        return text
    }

    private static func usageUnit(_ definition: ArgumentDefinition) -> String {
        var unit = definition.synopsis
        if definition.isRepeating { unit += " ..." }
        return definition.isRequired ? unit : "[\(unit)]"
    }

    private static func entry(_ definition: ArgumentDefinition, width: Int) -> String {
        var help = definition.help
        if definition.isInvertible {
            let isOn = definition.defaultValue == "true"
            help += (help.isEmpty ? "" : " ") + "(default: --\(isOn ? "" : "no-")\(definition.name))"
        } else if let defaultValue = definition.defaultValue {
            help += (help.isEmpty ? "" : " ") + "(default: \(defaultValue))"
        }
        if definition.isRepeating && !definition.isPositional {
            help += (help.isEmpty ? "" : " ") + "(may be repeated)"
        }
        return entry(label: definition.helpLabel, help: help, width: width)
    }

    /// `  --area <bbox>           The area ...`, help wrapped at `helpColumn`.
    private static func entry(label: String, help: String, width: Int) -> String {
        let indentedLabel = "  " + label
        let pad = String(repeating: " ", count: helpColumn)
        if help.isEmpty { return indentedLabel }
        if indentedLabel.count + 1 > helpColumn {
            return indentedLabel + "\n"
                + TextWrapping.wrap(words(help), width: width, firstPrefix: pad, indent: helpColumn)
        }
        let first = indentedLabel + String(repeating: " ", count: helpColumn - indentedLabel.count)
        return TextWrapping.wrap(words(help), width: width, firstPrefix: first, indent: helpColumn)
    }

    private static func words(_ text: String) -> [String] {
        text.split(whereSeparator: { $0 == " " || $0 == "\n" }).map(String.init)
    }
}
