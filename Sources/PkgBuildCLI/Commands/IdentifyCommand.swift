import Geometry
import PkgBuildKit

/// `pkgbuild identify`: the features at a location, nearest first.
struct IdentifyCommand: Command {
    static let configuration = CommandConfiguration(
        name: "identify",
        abstract: "List the features at a location, nearest first, with their distance in metres.",
        discussion: """
            Distances are geodesic (WGS 84), right at any latitude. The tolerance is a ground \
            distance, or a number of pixels at a zoom level (what a tap on a map covers there).
            """,
        arguments: [
            .package,
            .option("at", valueName: "X,Y", help: "The location, in --input-crs: longitude,latitude in EPSG:4326.",
                    isRequired: true),
            .option("input-crs", valueName: "CRS", help: "The CRS of --at (EPSG:n, WKT or PROJ).", defaultValue: "EPSG:4326"),
            .option("tolerance", valueName: "DISTANCE",
                    help: "How far a feature may be: a ground distance (25m, 0.5km) or pixels at a zoom (5px@z12).",
                    defaultValue: "10m"),
            .repeatingOption("layer", valueName: "NAME", help: "Look only in this layer."),
            .fullGeometry,
            .json("features"),
        ])

    let package: String
    let at: CoordinateArgument
    let inputCRS: String
    let tolerance: Tolerance
    let layers: [String]
    let json: Bool
    let fullGeometry: Bool

    init(_ arguments: ParsedArguments) throws {
        package = try arguments.required("package")
        at = try arguments.required("at")
        inputCRS = try arguments.required("input-crs")
        tolerance = try arguments.required("tolerance")
        layers = try arguments.values("layer")
        json = arguments.flag("json")
        fullGeometry = arguments.flag("full-geometry")
    }

    func run(_ context: CommandContext) throws {
        let package = try OfflinePackage(at: package, readOnly: true)
        let hits = try package.identify(at: at.coordinate, crs: inputCRS, tolerance: tolerance,
                                        layers: layers.isEmpty ? nil : layers)
        if json {
            let items = hits.map { FeatureOutput.json($0.feature, extra: [JSONMember("distance_m", .number($0.distance))],
                                                 fullGeometry: fullGeometry) }
            context.print(JSONValue.array(items).prettyPrinted)
            return
        }
        guard !hits.isEmpty else {
            context.printError("No feature within \(tolerance) of (\(at.coordinate.x), \(at.coordinate.y)).")
            return
        }
        var table = TextTable(columns: [.init("DISTANCE", alignment: .right), .init("LAYER"), .init("FID", alignment: .right),
                                        .init("GLOBALID"), .init("ATTRIBUTES")])
        for hit in hits {
            table.append([FeatureOutput.meters(hit.distance), hit.feature.layer, String(hit.feature.fid),
                          hit.feature.globalID ?? "", FeatureOutput.attributes(hit.feature)])
        }
        context.write(table.rendered)
    }
}
