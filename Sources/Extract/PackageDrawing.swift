import Foundation
import Geometry
import SQLite

/// Pictures of a package for a person: an SVG of the area, the features and one zoom's
/// tile grid, and GeoJSON of the area, the layer extents and the tile coverage. Everything
/// is drawn in longitude/latitude (EPSG:4326); layers in another CRS are transformed.
public enum PackageDrawing {
    /// The SVG document.
    /// - Parameter zoom: the zoom whose tile grid is drawn; nil picks the deepest zoom with at
    ///   most 256 tiles.
    public static func svg(_ inspection: PackageInspection, zoom: Int? = nil, width: Double = 900) throws -> String {
        let area = try areaGeometry(inspection)
        var extent = area.envelope ?? Envelope(minX: -180, minY: -85, maxX: 180, maxY: 85)
        let features = try featuresIn4326(inspection)
        for (_, g) in features { if let e = g.envelope { extent.expand(toInclude: e) } }
        let margin = max(extent.width, extent.height) * 0.04
        extent = Envelope(minX: extent.minX - margin, minY: extent.minY - margin,
                          maxX: extent.maxX + margin, maxY: extent.maxY + margin)
        // An equirectangular view, x scaled by cos(latitude) so shapes near the poles are not stretched.
        let aspect = cos(extent.center.y * .pi / 180)
        let scale = width / (extent.width * aspect)
        let height = extent.height * scale
        func p(_ c: Coordinate) -> String {
            String(format: "%.2f,%.2f", (c.x - extent.minX) * aspect * scale, (extent.maxY - c.y) * scale)
        }
        func path(_ g: Geometry) -> String {
            var d = ""
            func ring(_ r: [Coordinate], close: Bool) {
                guard let first = r.first else { return }
                d += "M" + p(first) + r.dropFirst().map { "L" + p($0) }.joined() + (close ? "Z" : "")
            }
            switch g {
            case .lineString(let l): ring(l.coordinates, close: false)
            case .multiLineString(let m): m.lineStrings.forEach { ring($0.coordinates, close: false) }
            case .polygon(let poly): poly.rings.forEach { ring($0, close: true) }
            case .multiPolygon(let m): m.polygons.forEach { $0.rings.forEach { ring($0, close: true) } }
            case .geometryCollection(let c): d += c.geometries.map(path).joined()
            default: break
            }
            return d
        }
        var svg = """
            <svg xmlns="http://www.w3.org/2000/svg" width="\(Int(width))" height="\(Int(height))" viewBox="0 0 \(Int(width)) \(Int(height))">
            <rect width="100%" height="100%" fill="#f8f8f4"/>

            """
        let chosenZoom = zoom ?? inspection.zooms.filter { $0.tiles <= 256 }.map(\.zoom).max()
        if let z = chosenZoom, let level = inspection.zooms.first(where: { $0.zoom == z }) {
            svg += "<g fill=\"#d8e4f0\" fill-opacity=\"0.5\" stroke=\"#5b7fa6\" stroke-width=\"0.8\">\n"
            for tile in try tiles(of: inspection, zoom: level.zoom) {
                svg += "<path d=\"\(path(.polygon(tile.polygon)))\"/>\n"
            }
            svg += "</g>\n<text x=\"8\" y=\"18\" font-family=\"sans-serif\" font-size=\"13\" fill=\"#5b7fa6\">tiles at zoom \(level.zoom): \(level.tiles)</text>\n"
        }
        let colors = ["#2e7d32", "#8e24aa", "#ef6c00", "#00838f", "#6d4c41"]
        for (index, layer) in inspection.layers.filter({ $0.geometryType != nil }).enumerated() {
            let color = colors[index % colors.count]
            svg += "<g id=\"\(xml(layer.name))\" fill=\"\(color)\" fill-opacity=\"0.35\" stroke=\"\(color)\" stroke-width=\"1\">\n"
            for (name, g) in features where name == layer.name {
                switch g {
                case .point(let pt):
                    if let c = pt.coordinate { svg += circle(p(c)) }
                case .multiPoint(let m):
                    for c in m.points.compactMap(\.coordinate) { svg += circle(p(c)) }
                default:
                    svg += "<path d=\"\(path(g))\"/>\n"
                }
            }
            svg += "</g>\n"
        }
        svg += "<path d=\"\(path(area))\" fill=\"none\" stroke=\"#c62828\" stroke-width=\"2.5\" stroke-dasharray=\"8 4\"/>\n"
        var y = Int(height) - 10
        for (index, layer) in inspection.layers.filter({ $0.geometryType != nil }).enumerated().reversed() {
            svg += "<text x=\"8\" y=\"\(y)\" font-family=\"sans-serif\" font-size=\"13\" fill=\"\(colors[index % colors.count])\">\(xml(layer.name)): \(layer.count)</text>\n"
            y -= 16
        }
        svg += "<text x=\"8\" y=\"\(y)\" font-family=\"sans-serif\" font-size=\"13\" fill=\"#c62828\">area of interest</text>\n"
        return svg + "</svg>\n"
    }

    /// A FeatureCollection: the area, each layer's data extent, and each zoom's tile range.
    public static func geoJSON(_ inspection: PackageInspection) throws -> String {
        var features: [String] = []
        func feature(_ g: Geometry, _ properties: [String: String]) -> String {
            let props = properties.sorted { $0.key < $1.key }.map { "\"\($0.key)\":\(jsonString($0.value))" }.joined(separator: ",")
            return "{\"type\":\"Feature\",\"properties\":{\(props)},\"geometry\":\(g.geoJSON())}"
        }
        features.append(feature(try areaGeometry(inspection), ["kind": "area"]))
        let proj = try PROJContext()
        for layer in inspection.layers {
            guard let e = layer.extent, let crs = layer.crs else { continue }
            let e4326 = crs == "EPSG:4326" ? e : try Transformer(from: crs, to: "EPSG:4326", context: proj).transform(e)
            features.append(feature(.polygon(e4326.polygon), ["kind": "layer extent", "layer": layer.name,
                                                                  "features": "\(layer.count)"]))
        }
        for z in inspection.zooms {
            let tiles = try self.tiles(of: inspection, zoom: z.zoom)
            let polygons = tiles.map(\.polygon)
            features.append(feature(.multiPolygon(MultiPolygon(polygons)), ["kind": "tile coverage", "zoom": "\(z.zoom)",
                                                                            "tiles": "\(z.tiles)"]))
        }
        return "{\"type\":\"FeatureCollection\",\"features\":[\n" + features.joined(separator: ",\n") + "\n]}"
    }

    static func areaGeometry(_ inspection: PackageInspection) throws -> Geometry {
        let text = inspection.manifest.area.geojson.text
        return try Geometry(geoJSON: Data(text.utf8))
    }

    /// Every geometry of the feature layers, in EPSG:4326.
    static func featuresIn4326(_ inspection: PackageInspection) throws -> [(String, Geometry)] {
        let db = try Connection(path: inspection.path + "/" + PackageDirectory.dataFileName, mode: .readOnly)
        let proj = try PROJContext()
        var result: [(String, Geometry)] = []
        for row in try db.query("SELECT table_name, column_name FROM gpkg_geometry_columns") {
            guard let table = row[0].stringValue, let column = row[1].stringValue,
                  let layer = inspection.layers.first(where: { $0.name == table }) else { continue }
            let transformer = layer.crs == nil || layer.crs == "EPSG:4326" ? nil
                : try Transformer(from: layer.crs!, to: "EPSG:4326", context: proj)
            try db.forEachRow("SELECT \(SQL.identifier(column)) FROM \(SQL.identifier(table))") { s in
                guard let blob = s.blob(at: 0), let g = try? GeoPackageBinary(bytes: blob).geometry else { return }
                result.append((table, try transformer?.transform(g) ?? g))
            }
        }
        return result
    }

    /// The tiles of one zoom of the basemap, as lon/lat boxes.
    static func tiles(of inspection: PackageInspection, zoom: Int) throws -> [Envelope] {
        let db = try Connection(path: inspection.path + "/" + PackageDirectory.basemapFileName, mode: .readOnly)
        let n = Double(1 << zoom)
        func lat(_ y: Double) -> Double { atan(sinh(.pi * (1 - 2 * y / n))) * 180 / .pi }
        return try db.query("SELECT tile_column, tile_row FROM tiles WHERE zoom_level = ?", [.integer(Int64(zoom))]).compactMap { r in
            guard let x = r[0].int64Value.map(Double.init), let row = r[1].int64Value.map(Double.init) else { return nil }
            let y = n - 1 - row  // TMS row to XYZ
            return Envelope(minX: x / n * 360 - 180, minY: lat(y + 1), maxX: (x + 1) / n * 360 - 180, maxY: lat(y))
        }
    }

    private static func circle(_ at: String) -> String {
        let xy = at.split(separator: ",")
        return "<circle cx=\"\(xy[0])\" cy=\"\(xy[1])\" r=\"4\"/>\n"
    }

    private static func xml(_ s: String) -> String {
        s.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: "\"", with: "&quot;")
    }

    private static func jsonString(_ s: String) -> String {
        ManifestJSON.string(s).text
    }
}
