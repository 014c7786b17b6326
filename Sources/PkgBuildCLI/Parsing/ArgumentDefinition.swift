/// One argument a command accepts, declared in its `CommandConfiguration`.
///
/// Build them with the static constructors, which read like the command line they describe:
/// ```swift
/// arguments: [
///     .positional("package", valueName: "AREA.pkg", help: "The package to write."),
///     .option("area", valueName: "bbox", help: "Area of interest: minx,miny,maxx,maxy.",
///             isRequired: true),
///     .option("zoom", valueName: "range", help: "Zoom levels.", defaultValue: "0-12"),
///     .repeatingOption("header", valueName: "K: V", help: "An HTTP header to send."),
///     .flag("dry-run", help: "Plan only; write nothing."),
///     .flagPair("related", defaultValue: true, help: "Bring related rows."),  // --[no-]related
///     .option("direction", values: SyncDirection.self, help: "Which way.", defaultValue: .bidirectional),
///     .option("output", short: "o", valueName: "path", help: "Where to write."),
/// ]
/// ```
/// Long names are kebab-case and given without the leading `--`; a command reads the parsed
/// values back under the same name (`try arguments.value("zoom", as: String.self)`).
public struct ArgumentDefinition: Sendable, Hashable {
    public enum Kind: Sendable, Hashable {
        /// `--name VALUE` or `--name=VALUE`; the last occurrence wins.
        case option
        /// `--name A --name B`; every occurrence is kept, in order.
        case repeatingOption
        /// `--name`, present or absent; takes no value.
        case flag
        /// A bare value matched by position; `isRepeating` takes all remaining ones.
        case positional(isRepeating: Bool)
    }

    public var kind: Kind
    /// The long name without dashes (`dry-run`), or a positional's key.
    public var name: String
    /// A one-letter alias (`o` for `-o`), options and flags only.
    public var short: Character?
    /// What the value is called in help and usage (`<bbox>`); a positional shows this too.
    public var valueName: String
    public var help: String
    /// Used when the option is absent; shown in help as `(default: ...)`.
    public var defaultValue: String?
    /// A missing required option or positional is a usage error before anything runs.
    public var isRequired: Bool
    /// Every value the option accepts, when its type is a closed set (help and completion list them).
    public var allowedValues: [String] = []
    /// A flag that also accepts `--no-NAME` to turn it off; its `defaultValue` is "true" or "false".
    public var isInvertible = false

    /// An option taking one value, `--name VALUE` or `--name=VALUE`.
    public static func option(_ name: String, short: Character? = nil, valueName: String,
                              help: String, defaultValue: String? = nil,
                              isRequired: Bool = false) -> ArgumentDefinition {
        ArgumentDefinition(kind: .option, name: name, short: short, valueName: valueName,
                           help: help, defaultValue: defaultValue, isRequired: isRequired)
    }

    /// An option whose value is one of a closed set of words, such as an enum of raw values: its
    /// value name, help and shell completion list the type's own cases, so they cannot drift.
    public static func option<T: ExpressibleByArgument & CaseIterable & RawRepresentable>(
        _ name: String, short: Character? = nil, values type: T.Type, help: String,
        defaultValue: T? = nil, isRequired: Bool = false) -> ArgumentDefinition where T.RawValue == String {
        let values = type.allCases.map(\.rawValue)
        var definition = ArgumentDefinition(kind: .option, name: name, short: short,
                                            valueName: values.joined(separator: "|"), help: help,
                                            defaultValue: defaultValue?.rawValue, isRequired: isRequired)
        definition.allowedValues = values
        return definition
    }

    /// An option that may be given many times; its values are kept in order.
    public static func repeatingOption(_ name: String, short: Character? = nil,
                                       valueName: String, help: String,
                                       isRequired: Bool = false) -> ArgumentDefinition {
        ArgumentDefinition(kind: .repeatingOption, name: name, short: short,
                           valueName: valueName, help: help, defaultValue: nil,
                           isRequired: isRequired)
    }

    /// A flag without a value, such as `--dry-run`.
    public static func flag(_ name: String, short: Character? = nil,
                            help: String) -> ArgumentDefinition {
        ArgumentDefinition(kind: .flag, name: name, short: short, valueName: "", help: help,
                           defaultValue: nil, isRequired: false)
    }

    /// A flag with its opposite: `--NAME` turns it on, `--no-NAME` off, the last one given wins;
    /// help shows `--[no-]NAME` and which is the default.
    public static func flagPair(_ name: String, defaultValue: Bool, help: String) -> ArgumentDefinition {
        var definition = ArgumentDefinition(kind: .flag, name: name, short: nil, valueName: "", help: help,
                                            defaultValue: String(defaultValue), isRequired: false)
        definition.isInvertible = true
        return definition
    }

    /// A value matched by position. Positionals are filled in declaration order; a repeating
    /// one must come last and takes every remaining value.
    public static func positional(_ name: String, valueName: String? = nil, help: String,
                                  isRequired: Bool = true,
                                  isRepeating: Bool = false) -> ArgumentDefinition {
        ArgumentDefinition(kind: .positional(isRepeating: isRepeating), name: name, short: nil,
                           valueName: valueName ?? name, help: help, defaultValue: nil,
                           isRequired: isRequired)
    }

    /// A positional whose value is one of a closed set of words (see the option of that kind).
    public static func positional<T: ExpressibleByArgument & CaseIterable & RawRepresentable>(
        _ name: String, values type: T.Type, help: String) -> ArgumentDefinition where T.RawValue == String {
        let values = type.allCases.map(\.rawValue)
        var definition = positional(name, valueName: values.joined(separator: "|"), help: help)
        definition.allowedValues = values
        return definition
    }

    var isPositional: Bool {
        if case .positional = kind { return true }
        return false
    }

    var isRepeating: Bool {
        switch kind {
        case .repeatingOption: return true
        case .positional(let repeating): return repeating
        case .option, .flag: return false
        }
    }

    /// How the argument is written in messages and usage: `--area <bbox>`, `--json`, `<AREA.pkg>`.
    var synopsis: String {
        switch kind {
        case .option, .repeatingOption: return "--\(name) <\(valueName)>"
        case .flag: return isInvertible ? "--[no-]\(name)" : "--\(name)"
        case .positional: return "<\(valueName)>"
        }
    }

    /// The long names the parser accepts for it: `--dry-run`; `--related` and `--no-related`.
    var longNames: [String] {
        if isPositional { return [] }
        return isInvertible ? ["--\(name)", "--no-\(name)"] : ["--\(name)"]
    }

    /// The label in the help's ARGUMENTS or OPTIONS section: `-o, --output <path>`.
    var helpLabel: String {
        if let short { return "-\(short), \(synopsis)" }
        return synopsis
    }
}
