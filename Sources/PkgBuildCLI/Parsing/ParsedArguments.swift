/// The values found on a command line for one command, keyed by the names the command
/// declared. Typed accessors convert and report a bad value as a `UsageError` naming the
/// option, so a command's `init(_:)` reads like its declaration.
///
/// Asking for a name the command did not declare is a programming error and traps.
public struct ParsedArguments: Sendable {
    public let definitions: [ArgumentDefinition]
    /// Every value given for each option or positional, in command-line order.
    private var valuesByName: [String: [String]]
    private var flagsGiven: Set<String>

    init(definitions: [ArgumentDefinition], values: [String: [String]], flags: Set<String>) {
        self.definitions = definitions
        self.valuesByName = values
        self.flagsGiven = flags
    }

    /// Whether a flag was given; for a pair (`--[no-]related`), the last of the two given, or
    /// its default when neither was.
    public func flag(_ name: String) -> Bool {
        let definition = self.definition(name)
        precondition(definition.kind == .flag, "'\(name)' is not declared as a flag")
        if definition.isInvertible {
            return (valuesByName[name]?.last ?? definition.defaultValue) == "true"
        }
        return flagsGiven.contains(name)
    }

    /// The value of an option or positional (the last one given), its default when absent,
    /// or nil when it has neither.
    /// - Throws: `UsageError` when the text is not a valid `T`.
    public func value<T: ExpressibleByArgument>(_ name: String, as type: T.Type = T.self) throws -> T? {
        let definition = self.definition(name)
        guard let text = valuesByName[name]?.last ?? definition.defaultValue else { return nil }
        return try convert(text, for: definition)
    }

    /// The value of an option or positional that must be present (declared required, or with
    /// a default).
    /// - Throws: `UsageError` when it is absent or not a valid `T`.
    public func required<T: ExpressibleByArgument>(_ name: String, as type: T.Type = T.self) throws -> T {
        guard let value: T = try value(name) else {
            throw UsageError("Missing expected argument '\(definition(name).synopsis)'")
        }
        return value
    }

    /// Every value of a repeating option or positional, in the order given (empty if none).
    /// - Throws: `UsageError` when one is not a valid `T`.
    public func values<T: ExpressibleByArgument>(_ name: String, as type: T.Type = T.self) throws -> [T] {
        let definition = self.definition(name)
        return try (valuesByName[name] ?? []).map { try convert($0, for: definition) }
    }

    /// Whether the option or positional was given on the command line (a default does not count).
    public func isPresent(_ name: String) -> Bool {
        _ = definition(name)
        return valuesByName[name] != nil || flagsGiven.contains(name)
    }

    private func convert<T: ExpressibleByArgument>(_ text: String, for definition: ArgumentDefinition) throws -> T {
        guard let value = T(argument: text) else {
            throw UsageError("The value '\(text)' is invalid for '\(definition.synopsis)': expected \(T.expectedValue)")
        }
        return value
    }

    private func definition(_ name: String) -> ArgumentDefinition {
        guard let definition = definitions.first(where: { $0.name == name }) else {
            preconditionFailure("argument '\(name)' is not declared by this command")
        }
        return definition
    }
}
