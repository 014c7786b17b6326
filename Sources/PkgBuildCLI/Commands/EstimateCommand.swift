import Extract

/// `pkgbuild estimate`: what `create` would build, writing nothing.
struct EstimateCommand: Command {
    static let configuration = CommandConfiguration(
        name: "estimate",
        abstract: "Count the tiles and features `create` would package, writing nothing.",
        arguments: ExtractOptions.planArguments)

    let request: ExtractRequest
    let json: Bool

    init(_ arguments: ParsedArguments) throws {
        request = try ExtractOptions.request(arguments, writesPackage: false)
        json = arguments.flag("json")
    }

    func run(_ context: CommandContext) throws {
        ExtractOptions.describe(request, context: context)
        let cancellation = context.cancellation
        let progress = StageProgress(context: context)
        defer { progress.finish() }
        let result = try Extractor.estimate(request, isCancelled: { cancellation.isCancelled },
                                            progress: { progress.report($0.rawValue, done: $1, total: $2) })
        progress.finish()
        for warning in result.warnings { context.warn(warning) }
        if json {
            var document = ExtractOptions.json(result)
            if case .object(var members) = document, let total = result.tiles {
                members.append(JSONMember("tiles", .object([
                    "total": .int(total),
                    "bytes": result.tileBytes.map { .int($0) } ?? .null,
                    "per_zoom": .array(result.tilesPerZoom.sorted { $0.key < $1.key }.map {
                        .object(["zoom": .int($0.key), "tiles": .int($0.value)])
                    }),
                ])))
                document = .object(members)
            }
            context.print(document.prettyPrinted)
        } else {
            context.write(ExtractOptions.table(result))
            if let total = result.tiles {
                var table = TextTable(columns: [.init("ZOOM", alignment: .right), .init("TILES", alignment: .right)])
                for (zoom, count) in result.tilesPerZoom.sorted(by: { $0.key < $1.key }) { table.append(["\(zoom)", "\(count)"]) }
                context.write("\n" + table.rendered)
                context.print("Tiles: \(total)" + (result.tileBytes.map { ", about \($0) bytes" } ?? ""))
            }
        }
    }
}
