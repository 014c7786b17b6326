import Extract
import Foundation
import Geodatabase
import Geometry
import Inspect
import PackageFormat
import TilePackage

/// `pkgbuild inspect`: what a package holds now, and what is wrong with it.
struct InspectCommand: Command {
    static let configuration = CommandConfiguration(
        name: "inspect",
        abstract: "Show a package: area, layers, tiles, replica, sizes and warnings.",
        discussion: """
            Reads the package as it is now: every layer's rows, extent and pending local edits, \
            the basemap's tiles per zoom, the replica's sync state, and checks the files against \
            each other (manifest, gpkg_contents, R-tree indexes, geometry validity, MBTiles \
            metadata, tiles against the area). Problems are listed as warnings; the exit code \
            is 0 unless the package cannot be read.
            """,
        arguments: [
            .package,
            .json("report"),
            .flag("geojson", help: "Print the area, the layer extents and the tile coverage as GeoJSON features."),
            .option("svg", valueName: "FILE", help: "Draw the area, the features and one zoom's tiles into an SVG file."),
            .option("svg-zoom", valueName: "Z", help: "The zoom whose tiles the SVG draws. (default: the deepest zoom with at most 256 tiles)"),
            .option("validity-limit", valueName: "N", help: "Geometries per layer checked for validity; a larger layer is sampled.",
                    defaultValue: "100000"),
        ])

    let package: String
    let json: Bool
    let geojson: Bool
    let svg: String?
    let svgZoom: Int?
    let validityLimit: Int

    init(_ arguments: ParsedArguments) throws {
        package = try arguments.required("package", as: String.self)
        json = arguments.flag("json")
        geojson = arguments.flag("geojson")
        svg = try arguments.value("svg", as: String.self)
        svgZoom = try arguments.value("svg-zoom", as: Int.self)
        validityLimit = try arguments.required("validity-limit", as: Int.self)
        if json && geojson { throw UsageError("--json and --geojson cannot be combined") }
        if svgZoom != nil && svg == nil { throw UsageError("--svg-zoom needs --svg FILE") }
        if validityLimit < 1 { throw UsageError("--validity-limit must be at least 1") }
    }

    func run(_ context: CommandContext) throws {
        let inspection = try PackageInspector.inspect(package, options: .init(validityLimit: validityLimit))
        if let svg {
            let drawing = try PackageDrawing.svg(inspection, zoom: svgZoom)
            do { try OutputFile.write(Data(drawing.utf8), to: svg) } catch {
                throw ExtractError(.output, error.message)
            }
        }
        if geojson {
            context.write(try PackageDrawing.geoJSON(inspection))
        } else if json {
            context.print(Self.json(inspection).prettyPrinted)
        } else {
            context.write(Self.text(inspection))
            return  // the report lists the warnings
        }
        for warning in inspection.warnings { context.warn(warning.message) }
    }

    static func extent(_ e: Envelope?) -> String {
        guard let e else { return "-" }
        func f(_ v: Double) -> String { String(format: "%.6g", v) }
        return "\(f(e.minX)),\(f(e.minY)),\(f(e.maxX)),\(f(e.maxY))"
    }

    static func bytes(_ n: Int64) -> String {
        n < 10_000 ? "\(n) B" : n < 10_000_000 ? "\(n / 1000) kB" : "\(n / 1_000_000) MB"
    }

    static func pending(_ p: PackageInspection.PendingEdits?) -> String {
        guard let p else { return "-" }
        return p.total == 0 ? "0" : "\(p.total) (+\(p.inserts) ~\(p.updates) -\(p.deletes))"
    }

    static func replicaLines(_ i: PackageInspection) -> [String] {
        let r = i.replica
        guard let id = r.id else { return ["(not registered: built with --no-register)"] }
        var first = "\(id): \(i.state)"
        if let g = r.extractionGeneration { first += ", extracted at generation \(g)" }
        if let g = r.syncGeneration, g != r.extractionGeneration { first += ", synced to generation \(g)" }
        var lines = [first]
        if let state = r.sourceState { lines.append(sourceStandingLine(state, package: i.path)) }
        if let last = r.lastSyncID { lines.append("last sync \(last)\(r.lastSyncAt.map { " at \($0)" } ?? "")") }
        if let pending = r.pendingSyncID { lines.append("sync \(pending) recorded but not finished") }
        if r.openConflicts > 0 { lines.append("conflicts: \(r.openConflicts) open, \(r.unresolvedConflicts) without a decision") }
        return lines
    }

    /// The replica's standing at the source in plain words; a refused one with the way out
    /// (the warnings say what the source recorded).
    static func sourceStandingLine(_ state: String, package: String) -> String {
        if let reason = ReplicaStanding.Refusal.Reason(rawValue: state) {
            let what: String
            switch reason {
            case .unregistered: what = "unregistered at the source"
            case .unknownReplica: what = "unknown to the source"
            case .staleCopy: what = "a stale copy (another copy of the package synced since)"
            case .restoredSource: what = "ahead of the source (restored from an older backup)"
            }
            return "\(what), which refuses its syncs: run 'pkgbuild sync \(package) --reattach' to sync again under a new replica"
        }
        if state == "resuming" { return "at the source: a sync the source applied and the next sync finishes" }
        return "at the source: \(state)"
    }

    static func text(_ i: PackageInspection) -> String {
        let m = i.manifest
        var wkt = m.area.wkt
        if wkt.count > 120 { wkt = String(wkt.prefix(117)) + "..." }
        let areaBounds = (try? Geometry(geoJSON: Data(m.area.geojson.compact.utf8)))?.envelope
        var rows: [(String, String)] = [
            ("Package", i.path),
            ("Created", "\(m.created) by \(m.tool.name) \(m.tool.version)"),
            ("Source", "\(m.source.kind) \(m.source.location)\(m.source.generation.map { " at generation \($0)" } ?? "")"),
        ]
        rows += replicaLines(i).enumerated().map { ($0.offset == 0 ? "Replica" : "", $0.element) }
        rows.append(("Area", "\(wkt) (\(m.area.crs))"))
        if let areaBounds { rows.append(("", "lon/lat bounds \(extent(areaBounds))")) }
        rows.append(("CRS", i.crs.isEmpty ? "-" : i.crs.joined(separator: ", ")))
        if let t = m.tiles {
            let total = i.zooms.reduce(0) { $0 + $1.tiles }
            // Semicolons: the zooms are a comma-separated list when the basemap has gaps.
            rows.append(("Tiles", "\(i.tileFormat ?? "?") from \(t.source); \(heldZooms(i, t)); \(total) tiles now (\(t.count) when built)"))
        }
        let files = PackageInspectorFileOrder.sorted(i.files)
        rows.append(("Files", files.map { "\($0.key) \(bytes($0.value))" }.joined(separator: ", ")
                     + ", total \(bytes(i.files.values.reduce(0, +)))"))
        var out = rows.map { $0.0.padding(toLength: 10, withPad: " ", startingAt: 0) + $0.1 + "\n" }.joined()

        var layers = TextTable(columns: [.init("LAYER"), .init("TYPE"), .init("CRS"), .init("FEATURES", alignment: .right),
                                         .init("PENDING"), .init("EXTENT"), .init("CUT")])
        for l in i.layers {
            layers.append([l.name, l.geometryType ?? l.dataType, l.crs ?? "-", "\(l.count)",
                           pending(l.pendingEdits), extent(l.extent), l.cut?.summary ?? "-"])
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
        out += i.warnings.isEmpty ? "\nNo warnings.\n"
            : "\nWarnings:\n" + i.warnings.map { "  - \($0.message)\n" }.joined()
        return out
    }

    /// `zooms 0-5, 7`: the zooms the basemap really holds, gaps shown, with the zooms asked
    /// for when they differ; the manifest's range only says where the held zooms begin and end.
    static func heldZooms(_ i: PackageInspection, _ t: PackageManifest.Tiles) -> String {
        let held = i.zooms.map(\.zoom)
        let asked = t.requestedZooms
        guard !held.isEmpty else { return "no tiles (zooms \(asked.lowerBound)-\(asked.upperBound) asked)" }
        let text = "zooms " + ZoomList.text(held)
        return held == Array(asked) ? text : text + " (\(asked.lowerBound)-\(asked.upperBound) asked)"
    }

    static func json(_ e: Envelope?) -> JSONValue {
        guard let e else { return .null }
        return .array([.number(e.minX), .number(e.minY), .number(e.maxX), .number(e.maxY)])
    }

    static func json(_ v: Int64?) -> JSONValue { v.map { .int($0) } ?? .null }

    static func json(_ r: PackageInspection.Replica) -> JSONValue {
        .object([
            "id": .string(r.id), "extraction_generation": json(r.extractionGeneration),
            "sync_generation": json(r.syncGeneration), "pending_sync_id": .string(r.pendingSyncID),
            "last_sync_id": .string(r.lastSyncID), "last_sync_at": .string(r.lastSyncAt),
            "open_conflicts": .int(r.openConflicts), "unresolved_conflicts": .int(r.unresolvedConflicts),
            "source_state": .string(r.sourceState),
        ])
    }

    static func json(_ c: LayerCut) -> JSONValue {
        .object(["summary": .string(c.summary), "clipped": .bool(c.clipped), "filter": .string(c.filter),
                 "reprojected_from": .string(c.reprojectedFrom), "schema_only": .bool(c.schemaOnly),
                 "spatial": .bool(c.spatial), "related_rows": .int(c.relatedRows)])
    }

    static func json(_ p: PackageInspection.PendingEdits) -> JSONValue {
        .object(["inserts": .int(p.inserts), "updates": .int(p.updates), "deletes": .int(p.deletes), "total": .int(p.total)])
    }

    static func json(_ l: PackageInspection.Layer) -> JSONValue {
        let pending: JSONValue = l.pendingEdits.map { json($0) } ?? .null
        let cut: JSONValue = l.cut.map { json($0) } ?? .null
        return .object([
            "name": .string(l.name), "data_type": .string(l.dataType), "geometry_type": .string(l.geometryType),
            "crs": .string(l.crs), "count": .int(l.count), "extent": json(l.extent),
            "declared_extent": json(l.declaredExtent), "pending_edits": pending, "cut": cut,
            "checked_geometries": .int(l.checkedGeometries), "invalid_geometries": .int(l.invalidGeometries),
        ])
    }

    static func json(_ z: PackageInspection.Zoom) -> JSONValue {
        .object([
            "zoom": .int(z.zoom), "tiles": .int(z.tiles), "min_column": .int(z.minColumn),
            "max_column": .int(z.maxColumn), "min_row": .int(z.minRow), "max_row": .int(z.maxRow),
            "bytes": .int(z.bytes),
        ])
    }

    static func json(_ i: PackageInspection) -> JSONValue {
        let m = i.manifest
        let bounds = (try? Geometry(geoJSON: Data(m.area.geojson.compact.utf8)))?.envelope
        let tileCount = i.zooms.reduce(0) { $0 + $1.tiles }
        let tiles: JSONValue = m.tiles.map { t -> JSONValue in
            .object(["format": .string(i.tileFormat), "source": .string(t.source), "min_zoom": .int(t.minZoom),
                     "max_zoom": .int(t.maxZoom), "held_zooms": .array(i.zooms.map { .int($0.zoom) }),
                     "held_zoom_ranges": .string(ZoomList.text(i.zooms.map(\.zoom))),
                     "count_when_built": .int(t.count), "count": .int(tileCount)])
        } ?? .null
        // An array rather than an object keyed by file name, so that keys stay names of fields.
        let files: [JSONValue] = PackageInspectorFileOrder.sorted(i.files).map {
            .object(["name": .string($0.key), "bytes": .int($0.value)])
        }
        let warnings: [JSONValue] = i.warnings.map { .object(["code": .string($0.code.rawValue), "message": .string($0.message)]) }
        let source: JSONValue = .object(["kind": .string(m.source.kind), "location": .string(m.source.location),
                                    "generation": json(m.source.generation)])
        let area: JSONValue = .object(["wkt": .string(m.area.wkt), "crs": .string(m.area.crs), "bounds": json(bounds)])
        return .object([
            "package": .string(i.path),
            "created": .string(m.created),
            "tool": .object(["name": .string(m.tool.name), "version": .string(m.tool.version)]),
            "state": .string(i.state),
            "replica": json(i.replica),
            "source": source,
            "area": area,
            "crs": .array(i.crs.map { .string($0) }),
            "layers": .array(i.layers.map { json($0) }),
            "tiles": tiles,
            "zooms": .array(i.zooms.map { json($0) }),
            "files": .array(files),
            "warnings": .array(warnings),
        ])
    }
}

/// Files in the order a person reads a package: manifest, data, basemap, then SQLite's side files.
enum PackageInspectorFileOrder {
    static func sorted(_ files: [String: Int64]) -> [(key: String, value: Int64)] {
        let order = [PackageManifest.fileName, PackageLayout.dataFileName, PackageLayout.basemapFileName]
        return files.sorted { a, b in
            (order.firstIndex(of: a.key) ?? order.count, a.key) < (order.firstIndex(of: b.key) ?? order.count, b.key)
        }
    }
}
