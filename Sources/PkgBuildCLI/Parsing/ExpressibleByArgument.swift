/// A type whose values can be written as one command-line token.
///
/// Conform domain types (a bounding box, a zoom range) so that a malformed value is a usage
/// error naming the option, before the command runs.
public protocol ExpressibleByArgument {
    /// Parses the token, or returns nil when it is not a valid value.
    init?(argument: String)
    /// What a valid value looks like, for the error message: "an integer".
    static var expectedValue: String { get }
}

extension ExpressibleByArgument {
    public static var expectedValue: String { "a valid value" }
}

/// A closed set of words (an enum with string raw values) is an argument by its raw values.
extension ExpressibleByArgument where Self: RawRepresentable & CaseIterable, RawValue == String {
    public init?(argument: String) { self.init(rawValue: argument) }
    public static var expectedValue: String {
        "one of " + allCases.map(\.rawValue).joined(separator: ", ")
    }
}

extension String: ExpressibleByArgument {
    public init?(argument: String) { self = argument }
}

extension Int: ExpressibleByArgument {
    public init?(argument: String) {
        self.init(argument, radix: 10)
    }
    public static var expectedValue: String { "an integer" }
}

extension Double: ExpressibleByArgument {
    public init?(argument: String) {
        // Double("nan") and Double("inf") parse, but no option of ours wants them.
        guard let value = Double(argument), value.isFinite else { return nil }
        self = value
    }
    public static var expectedValue: String { "a number" }
}
