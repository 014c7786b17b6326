import Extract

/// `create` and `estimate` stop on Ctrl-C with `ExtractError(.cancelled)`: 130, like every
/// other command; any other extract error is a failure.
extension ExtractError: ExitCodeProviding {
    public var exitCode: ExitCode { kind == .cancelled ? .interrupted : .failure }
}
