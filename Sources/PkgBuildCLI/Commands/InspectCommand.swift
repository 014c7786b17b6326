import Foundation
import Extract
import Geometry

/// `pkgbuild inspect`: what a package holds now.
struct InspectCommand: Command {
    static let configuration = CommandConfiguration(
        name: "inspect",
        abstract: "Show a package: area, layers, tiles, replica, sizes and warnings.",
        arguments: [
            .positional("package", valueName: "AREA.pkg", help: "The package directory."),
            .flag("json", help: "Print the report as JSON."),
            .flag("geojson", help: "Print the area, the layer extents and the tile coverage as GeoJSON features."),
            .option("svg", valueName: "FILE", help: "Draw the area, the features and one zoom's tile grid into an SVG file."),
            .option("svg-zoom", valueName: "Z", help: "The zoom whose tile grid the SVG draws; default the deepest with at most 256 tiles."),
        ])

    let package: String
    let json: Bool
    let geojson: Bool
    let svg: String?
    let svgZoom: Int?

    init(_ arguments: ParsedArguments) throws {
        package = try arguments.required("package", as: String.self)
        json = arguments.flag("json")
        geojson = arguments.flag("geojson")
        svg = try arguments.value("svg", as: String.self)
        svgZoom = try arguments.value("svg-zoom", as: Int.self)
        if json && geojson { throw UsageError("--json and --geojson cannot be combined") }
    }

    func run(_ context: CommandContext) throws {
        let inspection = try PackageInspector.inspect(package)
        if let svg {
            let drawing = try PackageDrawing.svg(inspection, zoom: svgZoom)
            do { try Data(drawing.utf8).write(to: URL(fileURLWithPath: svg)) } catch {
                throw ExtractError(.output, "cannot write \(svg): \(error.localizedDescription)")
            }
        }
        if geojson {
            context.print(try PackageDrawing.geoJSON(inspection))
        } else if json {
            context.print(Self.json(inspection).prettyPrinted)
        } else {
            context.write(Self.text(inspection))
        }
        for warning in inspection.warnings { context.warn(warning) }
    }

    static func extent(_ e: Envelope?) -> String {
        guard let e else { return "-" }
        func f(_ v: Double) -> String { String(format: "%.6g", v) }
        return "\(f(e.minX)),\(f(e.minY)),\(f(e.maxX)),\(f(e.maxY))"
    }

    static func bytes(_ n: Int64) -> String {
        n < 10_000 ? "\(n) B" : n < 10_000_000 ? "\(n / 1000) kB" : "\(n / 1_000_000) MB"
    }

    static func text(_ i: PackageInspection) -> String {
        let m = i.manifest
        var out = """
            Package   \(i.path)
            Created   \(m.created) by \(m.tool.name) \(m.tool.version)
            Replica   \(m.replicaID.isEmpty ? "(not registered)" : m.replicaID)\(m.source.generation.map { " at generation \($0)" } ?? "")
            Source    \(m.source.location)
            Area      \(m.area.wkt) (\(m.area.crs))
            CRS       \(Set(i.layers.compactMap(\.crs)).sorted().joined(separator: ", "))
            Files     \(i.files.sorted { $0.key < $1.key }.map { "\($0.key) \(bytes($0.value))" }.joined(separator: ", "))

            """
        var layers = TextTable(columns: [.init("LAYER"), .init("TYPE"), .init("CRS"), .init("FEATURES", alignment: .right),
                                         .init("PENDING", alignment: .right), .init("EXTENT"), .init("CUT")])
        for l in i.layers {
            layers.append([l.name, l.geometryType ?? l.dataType, l.crs ?? "-", "\(l.count)",
                           l.pendingEdits.map(String.init) ?? "-", extent(l.extent), l.cut?.summary ?? "-"])
        }
        out += "\n" + layers.rendered
        if !i.zooms.isEmpty {
            var zooms = TextTable(columns: [.init("ZOOM", alignment: .right), .init("TILES", alignment: .right),
                                            .init("COLUMNS"), .init("ROWS (TMS)"), .init("BYTES", alignment: .right)])
            for z in i.zooms {
                zooms.append(["\(z.zoom)", "\(z.tiles)", "\(z.minColumn)-\(z.maxColumn)", "\(z.minRow)-\(z.maxRow)", bytes(z.bytes)])
            }
            out += "\n" + zooms.rendered
        }
        if !i.warnings.isEmpty {
            out += "\nWarnings:\n" + i.warnings.map { "  - \($0)\n" }.joined()
        }
        return out
    }

    static func json(_ i: PackageInspection) -> PkgBuildCLI.JSONValue {
        func env(_ e: Envelope?) -> PkgBuildCLI.JSONValue {
            guard let e else { return .null }
            return .array([.number(e.minX), .number(e.minY), .number(e.maxX), .number(e.maxY)])
        }
        let m = i.manifest
        return .object([
            "package": .string(i.path),
            "created": .string(m.created),
            "replicaId": .string(m.replicaID.isEmpty ? nil : m.replicaID),
            "generation": m.source.generation.map { .int($0) } ?? .null,
            "source": .string(m.source.location),
            "area": .object(["wkt": .string(m.area.wkt), "crs": .string(m.area.crs)]),
            "layers": .array(i.layers.map { l in
                .object([
                    "name": .string(l.name), "dataType": .string(l.dataType), "geometryType": .string(l.geometryType),
                    "crs": .string(l.crs), "count": .int(l.count), "extent": env(l.extent),
                    "pendingEdits": l.pendingEdits.map { .int($0) } ?? .null,
                    "cut": .string(l.cut?.summary),
                ])
            }),
            "zooms": .array(i.zooms.map { z in
                .object([
                    "zoom": .int(z.zoom), "tiles": .int(z.tiles), "minColumn": .int(z.minColumn),
                    "maxColumn": .int(z.maxColumn), "minRow": .int(z.minRow), "maxRow": .int(z.maxRow),
                    "bytes": .int(z.bytes),
                ])
            }),
            "files": .object(i.files.sorted { $0.key < $1.key }.map { JSONMember($0.key, PkgBuildCLI.JSONValue.int(Int($0.value))) }),
            "warnings": .array(i.warnings.map { .string($0) }),
        ])
    }
}
