import Extract

/// `pkgbuild estimate`: what `create` would build, writing nothing.
struct EstimateCommand: Command {
    static let configuration = CommandConfiguration(
        name: "estimate",
        abstract: "Count the tiles and features `create` would package, writing nothing.",
        arguments: ExtractOptions.arguments.map { definition in
            var d = definition
            if d.name == "output" { d.isRequired = false }
            return d
        })

    let request: ExtractRequest
    let json: Bool

    init(_ arguments: ParsedArguments) throws {
        var request = try ExtractOptions.request(arguments, requireOutput: false)
        request.output = ""  // nothing is written
        self.request = request
        json = arguments.flag("json")
    }

    func run(_ context: CommandContext) throws {
        let cancellation = context.cancellation
        let result = try Extractor.estimate(request, isCancelled: { cancellation.isCancelled })
        for warning in result.warnings { context.warn(warning) }
        if json {
            context.print(ExtractOptions.json(result).prettyPrinted)
        } else {
            context.write(ExtractOptions.table(result))
        }
    }
}
