import Extract
import Geodatabase
import Geometry
import HTTP
import PackageFormat

/// The options `create` and `estimate` share, and turning them into an `ExtractRequest`.
enum ExtractOptions {
    /// What `estimate` takes too: everything but where and how to write the package.
    static let planArguments: [ArgumentDefinition] = [
        .area,
        .areaCRS,
        .option("features", valueName: "SRC.gpkg", help: "The source GeoPackage.", isRequired: true),
        .repeatingOption("layer", valueName: "NAME", help: "A layer to take. (default: every layer)"),
        .repeatingOption("where", valueName: "LAYER:EXPR",
                         help: "Keep only the rows of LAYER meeting EXPR, in the filter grammar below."),
        .flag("clip", help: "Cut features to the area (features that only touch it are dropped)."),
        .repeatingOption("schema-only", valueName: "LAYER", help: "Copy LAYER's schema without rows."),
        .flagPair("related", defaultValue: true, help: "Bring the rows related to the area's rows, wherever they lie."),
        .flag("skip-invalid", help: "Skip (and count) features whose geometry cannot be read, instead of failing."),
        .option("crs", valueName: "CRS", help: "Reproject every layer into CRS (EPSG:n, WKT or PROJ); refused when the area lies outside its area of use."),
        .option("tiles", valueName: "FILE.mbtiles|URL",
                help: "The basemap: an MBTiles file, or an XYZ/TMS URL template with {z}, {x}, {y} or {-y}."),
        .option("zoom", valueName: "MIN-MAX", help: "Zoom levels of the basemap, such as 0-12, or one zoom (needed with --tiles)."),
        .maxTiles,
        .concurrency,
        .option("rate", valueName: "N", help: "At most N HTTP requests per second to a --tiles URL. (default: no limit)"),
        HeaderOption.definition,
        .json("result"),
    ]

    /// The `--where` grammar, for the help of both commands (README "--where filters" says the same).
    static let whereGrammar = """
        In --where LAYER:EXPR, EXPR compares LAYER's columns with text in single quotes \
        ('O''Brien'), numbers (42, -1.5, 1e3) or other columns: = <> != < <= > >=, \
        [NOT] IN (v, ...), [NOT] BETWEEN a AND b, [NOT] LIKE 'pattern' (% any run, _ one \
        character, ASCII case ignored), IS [NOT] NULL; joined by NOT, AND, OR (binding in \
        that order) and parentheses. A column named other than in letters, digits and _, or \
        like an SQL word (SELECT, END...), goes in double quotes ("unit type"). Anything else \
        (functions, sub-selects, ';', comments, a column LAYER lacks) is refused, naming it \
        and its position.
        """

    /// What `create` takes: the plan, and where and how to write it.
    static let arguments: [ArgumentDefinition] = planArguments.dropLast() + [
        .flagPair("register", defaultValue: true, help: "Register the package as a replica at the source."),
        .option("output", short: "o", valueName: "AREA.pkg", help: "The package directory to write.", isRequired: true),
        .skipFailed,
        .flag("force", help: "Replace an existing package built by pkgbuild (never an input of the run, a file or folder that is not a package, or a package with unsynced edits)."),
        .lockTimeout,
        .json("result"),
    ]

    /// Reads the request from parsed arguments: `arguments` for `create` (`writesPackage`),
    /// `planArguments` for `estimate`.
    /// - Throws: `UsageError` for malformed values.
    static func request(_ arguments: ParsedArguments, writesPackage: Bool) throws -> ExtractRequest {
        var tiles: TilesRequest?
        if let source = try arguments.value("tiles", as: String.self) {
            guard let zoomText = try arguments.value("zoom", as: String.self) else {
                throw UsageError("--tiles needs --zoom MIN-MAX")
            }
            let zoom = try TilesCommand.zoomRange(zoomText)
            let maxTiles = try arguments.required("max-tiles", as: Int.self)
            guard maxTiles > 0 else { throw UsageError("--max-tiles must be at least 1") }
            let rate = try arguments.value("rate", as: Double.self)
            if let rate, !(rate > 0) { throw UsageError("--rate must be a positive number of requests per second") }
            let concurrency = try arguments.value("concurrency", as: Int.self) ?? 8
            guard concurrency > 0 else { throw UsageError("--concurrency must be at least 1") }
            tiles = TilesRequest(source: source, minZoom: zoom.lowerBound, maxZoom: zoom.upperBound,
                                 maxTiles: maxTiles, concurrency: concurrency,
                                 headers: try HeaderOption.values(arguments).map { "\($0.name): \($0.value)" },
                                 requestsPerSecond: rate,
                                 userAgent: HTTPConfiguration.userAgent(version: PkgBuildVersion.current),
                                 skipFailed: writesPackage && arguments.flag("skip-failed"))
        } else if arguments.isPresent("zoom") {
            throw UsageError("--zoom needs --tiles")
        } else if arguments.isPresent("header") {
            throw UsageError("--header needs --tiles")
        } else if arguments.isPresent("max-tiles") {
            throw UsageError("--max-tiles needs --tiles")
        } else if arguments.isPresent("rate") {
            throw UsageError("--rate needs --tiles")
        } else if writesPackage && arguments.flag("skip-failed") {
            throw UsageError("--skip-failed needs --tiles")
        }
        let filters: [WhereFilter]
        do { filters = try arguments.values("where", as: String.self).map { try WhereFilter(parsing: $0) } } catch let error as ExtractError {
            throw UsageError(error.message)
        }
        return ExtractRequest(
            area: try arguments.required("area", as: String.self),
            // Absent stays nil (EPSG:4326), so an interrupted build resumes under the same key.
            areaCRS: arguments.isPresent("area-crs") ? try arguments.value("area-crs", as: String.self) : nil,
            source: try arguments.required("features", as: String.self),
            layers: try arguments.values("layer", as: String.self),
            filters: filters,
            clip: arguments.flag("clip"),
            schemaOnly: try arguments.values("schema-only", as: String.self),
            includeRelated: arguments.flag("related"),
            skipInvalid: arguments.flag("skip-invalid"),
            crs: try arguments.value("crs", as: String.self),
            tiles: tiles,
            register: writesPackage && arguments.flag("register"),
            output: writesPackage ? try arguments.value("output", as: String.self) ?? "" : "",
            force: writesPackage && arguments.flag("force"))
    }

    /// Under `--verbose`, the request as it was understood, before any work.
    static func describe(_ request: ExtractRequest, context: CommandContext) {
        context.detail("Area: \(request.area) in \(request.areaCRS ?? "EPSG:4326")")
        context.detail("Features: \(request.source), "
                       + (request.layers.isEmpty ? "every layer" : "layers \(request.layers.joined(separator: ", "))")
                       + (request.clip ? ", clipped" : "") + (request.includeRelated ? ", with related rows" : "")
                       + (request.crs.map { ", into \($0)" } ?? ""))
        if let tiles = request.tiles {
            context.detail("Basemap: \(tiles.source) at zoom \(tiles.minZoom)-\(tiles.maxZoom), "
                           + "at most \(tiles.maxTiles) tiles")
        } else {
            context.detail("Basemap: none (no --tiles)")
        }
    }

    /// The per-layer table both commands print.
    static func table(_ result: Extractor.Result) -> String {
        var table = TextTable(columns: [.init("LAYER"), .init("TYPE"), .init("CRS"), .init("FEATURES", alignment: .right),
                                        .init("RELATED", alignment: .right), .init("CUT")])
        for layer in result.layers {
            table.append([layer.name, layer.geometryType ?? layer.dataType, layer.crs ?? "-", "\(layer.selected)",
                          "\(layer.related)", layer.cut.summary])
        }
        return table.rendered
    }

    static func json(_ result: Extractor.Result) -> JSONValue {
        .object([
            "package": .string(result.package),
            "replica_id": .string(result.replicaID),
            "generation": result.generation.map { .int($0) } ?? .null,
            "layers": .array(result.layers.map { layer in
                .object([
                    "name": .string(layer.name), "data_type": .string(layer.dataType),
                    "geometry_type": .string(layer.geometryType), "crs": .string(layer.crs),
                    "selected": .int(layer.selected), "related": .int(layer.related),
                    "skipped_invalid": .int(layer.skippedInvalid), "count": .int(layer.count),
                    "cut": .string(layer.cut.summary),
                ])
            }),
            "warnings": .array(result.warnings.map { .string($0) }),
        ])
    }

    /// `create`'s result: `json(_:)` with what the basemap's copy did (null without --tiles).
    static func createJSON(_ result: Extractor.Result) -> JSONValue {
        guard case .object(let members) = json(result) else { return json(result) }
        return .object(members + [JSONMember("basemap", result.tileReport.map { .object($0.jsonMembers) } ?? .null)])
    }
}

extension LayerCut {
    /// `clipped, filtered, reprojected from EPSG:4326`, or `whole` / `schema only`.
    var summary: String {
        if schemaOnly { return "schema only" }
        var parts: [String] = []
        if clipped { parts.append("clipped") }
        if filter != nil { parts.append("filtered") }
        if let from = reprojectedFrom { parts.append("reprojected from \(from)") }
        if !spatial { parts.append(relatedOnly || relatedRows > 0 ? "related rows" : "whole table") }
        return parts.isEmpty ? "by area" : parts.joined(separator: ", ")
    }
}
