import Foundation
import Geometry
import PkgBuildKit

/// `pkgbuild edit`: change, move, add or delete one feature, through the package's change
/// tracking like any other client's edit.
struct EditCommand: Command {
    static let configuration = CommandConfiguration(
        name: "edit",
        abstract: "Change, move, add or delete a feature; the edit is tracked for the next sync.",
        discussion: """
            Values are typed by their column and checked against NOT NULL and the layer's data \
            column constraints. Geometries are given in --input-crs and reprojected into the \
            layer's CRS; they must be valid, of the layer's type, and inside the area of use of \
            both CRSs. Nothing is written unless every check passes. In a layer clipped at \
            build time only attributes can be edited: a geometry edit, an insert or a delete \
            is refused, since it could not sync.
            """,
        arguments: [
            .package,
            .option("layer", valueName: "NAME", help: "The layer.", isRequired: true),
            .option("id", valueName: "ID", help: "The feature: its globalid (any case, braces optional) or fid."),
            .flag("add", help: "Add a new feature (with --set and --geometry) instead of changing one."),
            .repeatingOption("set", valueName: "FIELD=VALUE", help: "Set a field. A BLOB takes x'HEX' or @FILE (the file's bytes)."),
            .repeatingOption("null", valueName: "FIELD", help: "Clear a field to NULL."),
            .option("move", valueName: "X,Y[,Z]", help: "Move a point feature here, in --input-crs; without Z it keeps its own."),
            .option("geometry", valueName: "WKT|@FILE.geojson", help: "Replace the geometry, in --input-crs."),
            .option("input-crs", valueName: "CRS", help: "The CRS of --move and --geometry.", defaultValue: "EPSG:4326"),
            .flag("delete", help: "Delete the feature. Related rows are kept (and named)."),
            .flag("cascade", help: "With --delete: delete the rows the feature is the origin of, too."),
            .fullGeometry,
            .lockTimeout,
            .json("result"),
        ])

    let package: String
    let layer: String
    let id: FeatureID?
    let add: Bool
    let sets: [(field: String, text: String)]
    let nulls: [String]
    let geometry: GeometryEdit?
    let inputCRS: String
    let delete: Bool
    let cascade: Bool
    let json: Bool
    let fullGeometry: Bool

    init(_ arguments: ParsedArguments) throws {
        package = try arguments.required("package")
        layer = try arguments.required("layer")
        id = try arguments.value("id")
        add = arguments.flag("add")
        sets = try arguments.values("set", as: String.self).map { text in
            guard let equals = text.firstIndex(of: "="), equals != text.startIndex else {
                throw UsageError("--set \(text): expected FIELD=VALUE")
            }
            return (String(text[..<equals]).trimmingCharacters(in: .whitespaces), String(text[text.index(after: equals)...]))
        }
        nulls = try arguments.values("null")
        inputCRS = try arguments.required("input-crs")
        delete = arguments.flag("delete")
        cascade = arguments.flag("cascade")
        json = arguments.flag("json")
        fullGeometry = arguments.flag("full-geometry")
        let move: PositionArgument? = try arguments.value("move")
        let geometryText: String? = try arguments.value("geometry")
        if move != nil && geometryText != nil { throw UsageError("give --move or --geometry, not both") }
        if let move {
            geometry = .move(to: move.coordinate)
        } else if let geometryText {
            geometry = .replace(try Self.geometry(geometryText))
        } else {
            geometry = nil
        }

        if add == (id != nil) { throw UsageError("give --id ID to change or delete a feature, or --add to add one") }
        if cascade && !delete { throw UsageError("--cascade goes with --delete") }
        let changes = !sets.isEmpty || !nulls.isEmpty || geometry != nil
        if delete && (add || changes) { throw UsageError("--delete takes no --set, --null, --move, --geometry or --add") }
        if !delete && !changes { throw UsageError("nothing to do: give --set, --null, --move, --geometry or --delete") }
        if add, case .move? = geometry { throw UsageError("a new feature takes --geometry, not --move") }
    }

    /// WKT, or `@path` to a GeoJSON file holding one geometry (a geometry, a Feature, or a
    /// FeatureCollection of one feature).
    static func geometry(_ text: String) throws -> Geometry {
        do {
            guard text.hasPrefix("@") else { return try Geometry(wkt: text) }
            let path = String(text.dropFirst())
            guard let data = FileManager.default.contents(atPath: path) else {
                throw UsageError("--geometry \(text): cannot read \(path)")
            }
            let geometries = try GeoJSON.geometries(in: data)
            guard geometries.count == 1 else {
                throw UsageError("--geometry \(text): expected one geometry in \(path), found \(geometries.count)")
            }
            return geometries[0]
        } catch let error as GeometryError {
            throw UsageError("--geometry: \(error.message)")
        }
    }

    func run(_ context: CommandContext) throws {
        let package = try OfflinePackage(at: package)
        // An edit a clipped layer cannot sync is refused before its values are read.
        if delete { try package.refuseIfClipped(.delete, in: layer) }
        if add { try package.refuseIfClipped(.insert, in: layer) }
        if geometry != nil { try package.refuseIfClipped(.geometry, in: layer) }
        var values: [String: FieldValue] = [:]
        for (field, text) in sets { values[field] = try package.value(text, for: field, in: layer) }
        for field in nulls { values[field] = .null }

        if delete, let id {
            let result = try package.delete(in: layer, id: id, cascade: cascade)
            for row in result.keptRelated {
                context.warn("\(FeatureOutput.name(row.feature)) is related to it through \(row.relationship) and was left in place"
                             + (row.direction == .forward && !cascade ? " (--cascade deletes it)" : ""))
            }
            report(context, verb: "Deleted", result.deleted,
                   extra: [JSONMember("kept_related", .array(result.keptRelated.map {
                       FeatureOutput.json($0.feature, extra: [JSONMember("relationship", .string($0.relationship))],
                                          fullGeometry: fullGeometry)
                   })), JSONMember("removed_links", .int(result.removedLinks))])
            return
        }
        if add {
            var geometryValue: Geometry?
            if case .replace(let g)? = geometry { geometryValue = g }
            let feature = try package.add(to: layer, values: values, geometry: geometryValue, crs: inputCRS)
            try warnIfLeaving(feature, package, context)
            report(context, verb: "Added", [feature])
        } else if let id {
            let feature = try package.update(in: layer, id: id, FeatureChange(values: values, geometry: geometry, crs: inputCRS))
            try warnIfLeaving(feature, package, context)
            report(context, verb: "Updated", [feature])
        }
    }

    /// Says beforehand when the next sync will take the edited feature out of the package.
    private func warnIfLeaving(_ feature: Feature, _ package: OfflinePackage, _ context: CommandContext) throws {
        guard let reason = try package.departureReason(of: feature) else { return }
        context.warn("\(FeatureOutput.name(feature)) will leave the package at the next sync (the source keeps it): \(reason)")
    }

    private func report(_ context: CommandContext, verb: String, _ features: [Feature], extra: [JSONMember] = []) {
        if json {
            context.print(JSONValue.object([JSONMember("action", .string(verb.lowercased())),
                                            JSONMember("features", .array(features.map { FeatureOutput.json($0, fullGeometry: fullGeometry) }))] + extra)
                .prettyPrinted)
            return
        }
        // What was changed is a confirmation, not a result: --quiet leaves it out.
        guard context.verbosity > .quiet else { return }
        for feature in features {
            context.print("\(verb) \(FeatureOutput.name(feature))")
            if verb != "Deleted" {
                for attribute in feature.attributes { context.print("  \(attribute.name) = \(FeatureOutput.text(attribute.value))") }
                if let geometry = feature.geometry {
                    context.print("  geometry = \(FeatureOutput.geometryText(geometry, full: fullGeometry))")
                }
            }
        }
    }
}
