extension ArgumentDefinition {
    /// `<AREA.pkg>`: the package a command works on, the first positional of every package verb.
    static let package = ArgumentDefinition.positional(
        "package", valueName: "AREA.pkg", help: "The package directory.")

    /// `--json`, worded the same everywhere: "Print the <what> as JSON."
    static func json(_ what: String) -> ArgumentDefinition {
        .flag("json", help: "Print the \(what) as JSON.")
    }
}
