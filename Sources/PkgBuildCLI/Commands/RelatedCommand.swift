import Geometry
import PkgBuildKit

/// `pkgbuild related`: the rows related to a feature, through every relationship, both ways.
struct RelatedCommand: Command {
    static let configuration = CommandConfiguration(
        name: "related",
        abstract: "List the rows related to a feature through every relationship, in both directions.",
        arguments: [
            .package,
            .option("layer", valueName: "NAME", help: "The feature's layer.", isRequired: true),
            .option("id", valueName: "ID", help: "The feature: its globalid (any case, braces optional) or fid.",
                    isRequired: true),
            .fullGeometry,
            .json("rows"),
        ])

    let package: String
    let layer: String
    let id: FeatureID
    let json: Bool
    let fullGeometry: Bool

    init(_ arguments: ParsedArguments) throws {
        package = try arguments.required("package")
        layer = try arguments.required("layer")
        id = try arguments.required("id")
        json = arguments.flag("json")
        fullGeometry = arguments.flag("full-geometry")
    }

    func run(_ context: CommandContext) throws {
        let package = try OfflinePackage(at: package, readOnly: true)
        let related = try package.related(in: layer, id: id)
        if json {
            let items = related.map {
                FeatureOutput.json($0.feature, extra: [JSONMember("relationship", .string($0.relationship)),
                                                       JSONMember("cardinality", .string($0.cardinality.rawValue)),
                                                       JSONMember("direction", .string($0.direction.rawValue))],
                                  fullGeometry: fullGeometry)
            }
            context.print(JSONValue.array(items).prettyPrinted)
            return
        }
        guard !related.isEmpty else {
            context.printError("No rows are related to \(layer) \(id).")
            return
        }
        var table = TextTable(columns: [.init("RELATIONSHIP"), .init("CARDINALITY"), .init("DIRECTION"), .init("LAYER"),
                                        .init("FID", alignment: .right), .init("GLOBALID"), .init("ATTRIBUTES")])
        for row in related {
            table.append([row.relationship, row.cardinality.rawValue, row.direction.rawValue, row.feature.layer,
                          String(row.feature.fid), row.feature.globalID ?? "", FeatureOutput.attributes(row.feature)])
        }
        context.write(table.rendered)
    }
}
