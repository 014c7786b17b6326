import Extract

/// The options `create` and `estimate` share, and turning them into an `ExtractRequest`.
enum ExtractOptions {
    static let arguments: [ArgumentDefinition] = [
        .option("area", valueName: "bbox|WKT|@file.geojson",
                help: "The area of interest: minx,miny,maxx,maxy, a WKT polygon, or a GeoJSON file.", isRequired: true),
        .option("area-crs", valueName: "CRS", help: "The CRS of --area (EPSG:n, WKT or PROJ); default EPSG:4326."),
        .option("features", valueName: "SRC.gpkg", help: "The source geodatabase (a GeoPackage).", isRequired: true),
        .repeatingOption("layer", valueName: "NAME", help: "A layer to take (repeatable); default every layer."),
        .repeatingOption("where", valueName: "LAYER:EXPR",
                         help: "Keep only the rows of LAYER meeting the SQL expression (it may only read LAYER)."),
        .flag("clip", help: "Cut features to the area (features that only touch it are dropped)."),
        .repeatingOption("schema-only", valueName: "LAYER", help: "Copy LAYER's schema without rows (repeatable)."),
        .flag("no-related", help: "Do not bring rows related to the area's rows."),
        .flag("skip-invalid", help: "Skip (and count) features whose geometry cannot be read, instead of failing."),
        .option("crs", valueName: "CRS", help: "Reproject every layer into CRS (EPSG:n, WKT or PROJ)."),
        .option("tiles", valueName: "MBTILES|URL", help: "The basemap: an MBTiles file or an XYZ URL template."),
        .option("zoom", valueName: "A-B", help: "Zoom levels of the basemap."),
        .option("max-tiles", valueName: "N", help: "Refuse more tiles than N."),
        .option("concurrency", valueName: "N", help: "Parallel downloads for an HTTP tile source.", defaultValue: "8"),
        HeaderOption.definition,
        .flag("no-register", help: "Do not register the package as a replica at the source."),
        .option("output", short: "o", valueName: "AREA.pkg", help: "The package directory to write.", isRequired: true),
        .flag("force", help: "Replace an existing package."),
        .json("result"),
    ]

    /// Reads the request from parsed arguments.
    /// - Throws: `UsageError` for malformed values.
    static func request(_ arguments: ParsedArguments, requireOutput: Bool) throws -> ExtractRequest {
        var tiles: TilesRequest?
        if let source = try arguments.value("tiles", as: String.self) {
            guard let zoom = try arguments.value("zoom", as: String.self) else {
                throw UsageError("--tiles needs --zoom A-B")
            }
            let parts = zoom.split(separator: "-").map { Int($0) }
            guard (1...2).contains(parts.count), let a = parts.first ?? nil, let b = parts.last ?? nil,
                  a >= 0, b >= a, b <= 24 else {
                throw UsageError("--zoom \(zoom): expected A-B with 0 <= A <= B <= 24")
            }
            tiles = TilesRequest(source: source, minZoom: a, maxZoom: b,
                                 maxTiles: try arguments.value("max-tiles", as: Int.self),
                                 concurrency: try arguments.value("concurrency", as: Int.self) ?? 8,
                                 headers: try HeaderOption.values(arguments).map { "\($0.name): \($0.value)" })
        } else if arguments.isPresent("zoom") {
            throw UsageError("--zoom needs --tiles")
        } else if arguments.isPresent("header") {
            throw UsageError("--header needs --tiles")
        }
        let filters: [WhereFilter]
        do { filters = try arguments.values("where", as: String.self).map { try WhereFilter(parsing: $0) } } catch let error as ExtractError {
            throw UsageError(error.message)
        }
        return ExtractRequest(
            area: try arguments.required("area", as: String.self),
            areaCRS: try arguments.value("area-crs", as: String.self),
            source: try arguments.required("features", as: String.self),
            layers: try arguments.values("layer", as: String.self),
            filters: filters,
            clip: arguments.flag("clip"),
            schemaOnly: try arguments.values("schema-only", as: String.self),
            includeRelated: !arguments.flag("no-related"),
            skipInvalid: arguments.flag("skip-invalid"),
            crs: try arguments.value("crs", as: String.self),
            tiles: tiles,
            register: !arguments.flag("no-register"),
            output: try arguments.value("output", as: String.self) ?? "",
            force: arguments.flag("force"))
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
}

extension LayerCut {
    /// `clipped, filtered, reprojected from EPSG:4326`, or `whole` / `schema only`.
    var summary: String {
        if schemaOnly { return "schema only" }
        var parts: [String] = []
        if clipped { parts.append("clipped") }
        if filter != nil { parts.append("filtered") }
        if let from = reprojectedFrom { parts.append("reprojected from \(from)") }
        if !spatial { parts.append(relatedRows > 0 ? "related rows" : "whole table") }
        return parts.isEmpty ? "by area" : parts.joined(separator: ", ")
    }
}
