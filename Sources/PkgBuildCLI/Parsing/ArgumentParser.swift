/// Matches the tokens after a command's name against its declared arguments.
///
/// Rules, those of swift-argument-parser where it has one:
/// - `--name VALUE` and `--name=VALUE`; `-n VALUE` for a short alias.
/// - A token that looks like a number (`-5`, `-170,52,-130,72`, `-.5`) is a value, never an
///   option, so western longitudes work as typed. A lone `-` is a value too (stdin).
/// - Any other token starting with `-` must be a declared option, or it is an error.
/// - `--` ends the options: everything after it is positional.
/// - A flag declared as a pair (`--[no-]related`) takes `--no-related` too; the last one wins.
/// - `-h` / `--help` anywhere asks for help.
enum ArgumentParser {
    static func parse(_ tokens: [String], definitions: [ArgumentDefinition]) throws -> ParsedArguments {
        var values: [String: [String]] = [:]
        var flags: Set<String> = []
        let positionals = definitions.filter(\.isPositional)
        var positionalIndex = 0

        func addPositional(_ token: String) throws {
            guard positionalIndex < positionals.count else {
                throw UsageError("Unexpected argument '\(token)'")
            }
            let definition = positionals[positionalIndex]
            values[definition.name, default: []].append(token)
            if !definition.isRepeating { positionalIndex += 1 }
        }

        var index = 0
        var optionsEnded = false
        while index < tokens.count {
            let token = tokens[index]
            index += 1
            if optionsEnded || !looksLikeOption(token) {
                try addPositional(token)
                continue
            }
            if token == "--" {
                optionsEnded = true
                continue
            }
            if token == "-h" || token == "--help" { throw HelpRequest() }

            let (name, inlineValue) = split(token)
            guard let found = lookup(name, in: definitions) else {
                throw UsageError(unknownOptionMessage(name, definitions: definitions))
            }
            let (definition, isNegated) = found
            switch definition.kind {
            case .flag:
                if inlineValue != nil {
                    throw UsageError("The flag '\(definition.synopsis)' does not take a value")
                }
                if definition.isInvertible {
                    values[definition.name, default: []].append(String(!isNegated))
                } else {
                    flags.insert(definition.name)
                }
            case .option, .repeatingOption:
                let value: String
                if let inlineValue {
                    value = inlineValue
                } else if index < tokens.count, !looksLikeOption(tokens[index]) {
                    value = tokens[index]
                    index += 1
                } else {
                    throw UsageError("Missing value for '\(definition.synopsis)'")
                }
                values[definition.name, default: []].append(value)
            case .positional:
                // lookup only finds options and flags
                throw UsageError(unknownOptionMessage(name, definitions: definitions))
            }
        }

        for definition in definitions where definition.isRequired && values[definition.name] == nil {
            throw UsageError("Missing expected argument '\(definition.synopsis)'")
        }
        return ParsedArguments(definitions: definitions, values: values, flags: flags)
    }

    /// Whether a token is meant as an option: it starts with `-`, is not a lone `-`, and does
    /// not look like a (negative) number or a list of numbers.
    static func looksLikeOption(_ token: String) -> Bool {
        guard token.hasPrefix("-"), token.count > 1 else { return false }
        return !looksLikeNegativeNumber(token)
    }

    /// `-5`, `-150.5,63.3`, `-.5`, `-1e3`: a minus followed by a digit, or by `.` and a digit.
    static func looksLikeNegativeNumber(_ token: String) -> Bool {
        let rest = token.utf8.dropFirst()
        guard let first = rest.first else { return false }
        if isDigit(first) { return true }
        if first == UInt8(ascii: "."), let second = rest.dropFirst().first { return isDigit(second) }
        return false
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    /// `--area=1,2,3,4` -> (`--area`, `1,2,3,4`); `-o=x` -> (`-o`, `x`).
    private static func split(_ token: String) -> (name: String, value: String?) {
        guard let equals = token.firstIndex(of: "=") else { return (token, nil) }
        return (String(token[..<equals]), String(token[token.index(after: equals)...]))
    }

    /// The option `name` stands for, and whether it is the `--no-` half of a flag pair.
    private static func lookup(_ name: String,
                               in definitions: [ArgumentDefinition]) -> (ArgumentDefinition, Bool)? {
        if name.hasPrefix("--") {
            let long = name.dropFirst(2)
            if let plain = definitions.first(where: { !$0.isPositional && $0.name == long }) {
                return (plain, false)
            }
            guard long.hasPrefix("no-") else { return nil }
            let positive = long.dropFirst(3)
            return definitions.first { $0.isInvertible && $0.name == positive }.map { ($0, true) }
        }
        guard name.count == 2, let letter = name.last else { return nil }
        return definitions.first { !$0.isPositional && $0.short == letter }.map { ($0, false) }
    }

    /// `Unknown option '--zom'; did you mean '--zoom'?`
    static func unknownOptionMessage(_ name: String, definitions: [ArgumentDefinition]) -> String {
        let message = "Unknown option '\(name)'"
        guard name.hasPrefix("--") else { return message }
        let candidates = definitions.flatMap(\.longNames) + ["--help"]
        return Suggestion.message(message, typed: name, among: candidates)
    }
}
