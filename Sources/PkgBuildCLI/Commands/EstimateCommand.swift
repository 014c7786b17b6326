import Extract
import Geometry
import TilePackage

/// `pkgbuild estimate`: what `create` would build, writing nothing.
struct EstimateCommand: Command {
    static let configuration = CommandConfiguration(
        name: "estimate",
        abstract: "Count the tiles and features `create` would package, writing nothing.",
        discussion: ExtractOptions.whereGrammar,
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
        let tiles = result.maxTiles.map {
            TilePlanOutput(counts: result.tileCounts, bytes: result.tileBytes, maxTiles: $0, fit: result.tileFit)
        }
        if json {
            var document = ExtractOptions.json(result)
            if case .object(var members) = document, let tiles {
                members.append(JSONMember("tiles", .object(tiles.jsonMembers(zooms: "per_zoom", total: "total", bytes: "bytes"))))
                document = .object(members)
            }
            context.print(document.prettyPrinted)
        } else {
            context.write(ExtractOptions.table(result))
            if let tiles {
                context.write("\n" + tiles.table)
                context.print(tiles.totalLine)
                if let warning = tiles.limitWarning { context.warn(warning) }
            }
        }
    }
}
