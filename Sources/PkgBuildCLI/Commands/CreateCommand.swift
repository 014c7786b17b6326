import Extract

/// `pkgbuild create`: builds an offline package for an area.
struct CreateCommand: Command {
    static let configuration = CommandConfiguration(
        name: "create",
        abstract: "Build an offline package (features and basemap) for an area of interest.",
        discussion: """
            Features intersecting the area are taken whole (touching ones included), or cut to \
            it with --clip; rows related to them come along. The package appears under its \
            name only when complete; an interrupted build is resumed by running the same \
            command again.

            \(ExtractOptions.whereGrammar)
            """,
        arguments: ExtractOptions.arguments)

    let request: ExtractRequest
    let json: Bool

    init(_ arguments: ParsedArguments) throws {
        request = try ExtractOptions.request(arguments, writesPackage: true)
        json = arguments.flag("json")
    }

    func run(_ context: CommandContext) throws {
        ExtractOptions.describe(request, context: context)
        let cancellation = context.cancellation
        let progress = StageProgress(context: context)
        defer { progress.finish() }
        let result: Extractor.Result
        do {
            result = try Extractor.create(request, toolVersion: PkgBuildVersion.current,
                                          isCancelled: { cancellation.isCancelled },
                                          progress: { progress.report($0.rawValue, done: $1, total: $2) })
            progress.finish()
        } catch let error as ExtractError where error.kind == .cancelled {
            progress.finish()
            // Ctrl-C: the same exit code as every command of the CLI.
            context.printError("Interrupted: \(error.message)")
            throw ExitCode.interrupted
        }
        for warning in result.warnings { context.warn(warning) }
        if json {
            context.print(ExtractOptions.createJSON(result).prettyPrinted)
        } else {
            context.info("Built \(result.package ?? request.output)")
            if let id = result.replicaID { context.info("Replica \(id)" + (result.generation.map { " at generation \($0)" } ?? "")) }
            if let report = result.tileReport { context.info("Basemap \(report.summary)") }
            context.info(text: ExtractOptions.table(result))
        }
    }
}
