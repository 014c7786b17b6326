import Foundation
import Geometry
import PackageFormat
import SQLite
import TilePackage

/// Pictures of a package for a person: an SVG of the area, the features and one zoom's tiles
/// (the basemap's own images under their grid, for raster tiles), and GeoJSON of the area, the
/// layer extents and the tile coverage.
///
/// The SVG is drawn in Web Mercator, as the basemap is: tiles are squares, and features sit on
/// the tiles where a map would show them. It is framed on the area, every feature and every
/// tile of the drawn zoom, so nothing runs off the edge; the legend sits below the map.
public enum PackageDrawing {
    /// Tiles drawn with their images at most; a zoom with more is drawn as a grid only.
    public static let maxImageTiles = 256
    /// Tiles drawn at most: beyond this the grid would be a solid block.
    public static let maxDrawnTiles = 4096
    /// Features drawn per layer at most, so a picture of a large package stays a picture; the
    /// frame still takes in the whole layer's extent.
    public static let maxDrawnFeatures = 20_000

    /// The zoom drawn when none is asked for: the deepest with at most `maxImageTiles` tiles.
    public static func defaultZoom(_ inspection: PackageInspection) -> Int? {
        inspection.zooms.filter { $0.tiles <= maxImageTiles }.map(\.zoom).max() ?? inspection.zooms.first?.zoom
    }

    /// The SVG document.
    /// - Parameters:
    ///   - zoom: the zoom whose tiles are drawn; nil for ``defaultZoom(_:)``.
    ///   - size: the longer side of the map, in pixels.
    ///   - maxFeatures: features drawn per layer at most.
    /// - Throws: ``PackageFormatError`` (`absent`) when `zoom` is not a zoom of the basemap or has
    ///   more than `maxDrawnTiles` tiles; errors of PROJ or SQLite reading the package.
    public static func svg(_ inspection: PackageInspection, zoom: Int? = nil, size: Double = 1000,
                           maxFeatures: Int = maxDrawnFeatures) throws -> String {
        if let zoom, !inspection.zooms.contains(where: { $0.zoom == zoom }) {
            let zooms = inspection.zooms.map { String($0.zoom) }.joined(separator: ", ")
            throw PackageFormatError(.absent, "the basemap has no tiles at zoom \(zoom)"
                + (zooms.isEmpty ? " (it has no tiles)" : " (its zooms: \(zooms))"))
        }
        let level = (zoom ?? defaultZoom(inspection)).flatMap { z in inspection.zooms.first { $0.zoom == z } }
        if let level, level.tiles > maxDrawnTiles {
            throw PackageFormatError(.absent, "zoom \(level.zoom) has \(level.tiles) tiles, more than the \(maxDrawnTiles) "
                + "a picture can show; choose a lower --svg-zoom")
        }
        let area = try mercator(areaGeometry(inspection).densified(maxSegmentLength: TileCoverage.densifyDegrees))
        let features = try featuresIn4326(inspection, limit: maxFeatures).map { ($0.0, mercator($0.1)) }
        let tiles = try level.map { try self.tiles(of: inspection, zoom: $0.zoom) } ?? []

        var frame = area.envelope
        func include(_ e: Envelope?) {
            guard let e else { return }
            if frame == nil { frame = e } else { frame?.expand(toInclude: e) }
        }
        features.forEach { include($0.1.envelope) }
        let proj = try PROJContext()
        for layer in inspection.layers where layer.count > maxFeatures {
            guard let e = layer.extent, let crs = layer.crs else { continue }
            let lonLat = crs == "EPSG:4326" ? e : try Transformer(from: crs, to: "EPSG:4326", context: proj).transform(e)
            include(mercator(.polygon(lonLat.polygon)).envelope)
        }
        tiles.forEach { include(WebMercator.mercatorBounds(of: $0.id)) }
        var extent = frame ?? Envelope(minX: -WebMercator.originShift, minY: -WebMercator.originShift,
                                       maxX: WebMercator.originShift, maxY: WebMercator.originShift)
        // A point or a line along an axis has no width or height: give it some room.
        let side = max(extent.width, extent.height, 1)
        let margin = side * 0.04
        extent = Envelope(minX: extent.center.x - max(extent.width, side * 0.2) / 2 - margin,
                          minY: extent.center.y - max(extent.height, side * 0.2) / 2 - margin,
                          maxX: extent.center.x + max(extent.width, side * 0.2) / 2 + margin,
                          maxY: extent.center.y + max(extent.height, side * 0.2) / 2 + margin)
        let scale = size / max(extent.width, extent.height)
        let width = (extent.width * scale).rounded(.up), mapHeight = (extent.height * scale).rounded(.up)
        let canvas = SVGCanvas(extent: extent, scale: scale)

        let drawnLayers = inspection.layers.filter { $0.geometryType != nil }
        let legendLines = 3 + drawnLayers.count + (level == nil ? 0 : 1)
        let height = mapHeight + Double(legendLines) * 18 + 12
        var svg = """
            <svg xmlns="http://www.w3.org/2000/svg" width="\(Int(width))" height="\(Int(height))" viewBox="0 0 \(Int(width)) \(Int(height))" font-family="sans-serif" font-size="13">
            <rect width="100%" height="100%" fill="#ffffff"/>
            <rect width="\(Int(width))" height="\(Int(mapHeight))" fill="#eef1f4"/>

            """
        if let level {
            let images = level.tiles <= maxImageTiles && ["png", "jpg", "jpeg", "webp"].contains(inspection.tileFormat ?? "")
            if images {
                let mime = inspection.tileFormat == "png" ? "image/png" : inspection.tileFormat == "webp" ? "image/webp" : "image/jpeg"
                svg += "<g id=\"basemap\" opacity=\"0.55\">\n"
                for tile in tiles {
                    guard let data = tile.data else { continue }
                    svg += "<image \(canvas.rectAttributes(WebMercator.mercatorBounds(of: tile.id))) preserveAspectRatio=\"none\" "
                        + "href=\"data:\(mime);base64,\(data.base64EncodedString())\"/>\n"
                }
                svg += "</g>\n"
            }
            svg += "<g id=\"tiles\" fill=\"\(images ? "none" : "#d8e4f0")\" fill-opacity=\"0.5\" stroke=\"#3b5f86\" stroke-width=\"1\">\n"
            for tile in tiles {
                let bounds = WebMercator.mercatorBounds(of: tile.id)
                svg += "<rect \(canvas.rectAttributes(bounds))/>\n"
                let b = canvas.box(bounds)
                if b.width >= 70 {
                    svg += "<text x=\"\(canvas.f(b.x + 4))\" y=\"\(canvas.f(b.y + 15))\" font-size=\"12\" fill=\"#1f3b5a\" fill-opacity=\"1\" "
                        + "stroke=\"#ffffff\" stroke-width=\"3\" paint-order=\"stroke\">\(tile.id)</text>\n"
                }
            }
            svg += "</g>\n"
        }
        // Colours that stand out on a basemap's greens, blues and greys.
        let colors = ["#d81b60", "#1e3a8a", "#f57c00", "#6a1b9a", "#00695c"]
        for (index, layer) in drawnLayers.enumerated() {
            let color = colors[index % colors.count]
            svg += "<g id=\"layer-\(xml(layer.name))\" fill=\"\(color)\" fill-opacity=\"0.45\" stroke=\"\(color)\" stroke-width=\"2\">\n"
            for (name, g) in features where name == layer.name {
                svg += canvas.shape(g)
            }
            svg += "</g>\n"
        }
        svg += "<path id=\"area\" d=\"\(canvas.path(area))\" fill=\"none\" stroke=\"#111111\" stroke-width=\"2.5\" stroke-dasharray=\"8 4\"/>\n"

        var y = mapHeight + 22
        func legend(_ text: String, color: String, swatch: String) {
            svg += swatch.replacingOccurrences(of: "$Y", with: "\(Int(y) - 10)")
            svg += "<text x=\"30\" y=\"\(Int(y))\" fill=\"#222\">\(xml(text))</text>\n"
            y += 18
        }
        let name = (inspection.path as NSString).lastPathComponent
        svg += "<text x=\"8\" y=\"\(Int(y))\" font-weight=\"bold\" fill=\"#222\">\(xml(name))</text>\n"
        y += 18
        legend("area of interest", color: "#111111",
               swatch: "<line x1=\"8\" y1=\"$Y\" x2=\"24\" y2=\"$Y\" stroke=\"#111111\" stroke-width=\"2.5\" stroke-dasharray=\"4 2\"/>\n")
        for (index, layer) in drawnLayers.enumerated() {
            let color = colors[index % colors.count]
            let drawn = layer.count > maxFeatures ? " (\(maxFeatures) drawn)" : ""
            legend("\(layer.name): \(layer.count) \(layer.geometryType?.lowercased() ?? "feature")\(layer.count == 1 ? "" : "s")\(drawn)",
                   color: color, swatch: swatch(geometryType: layer.geometryType, color: color))
        }
        let west = WebMercator.lonLat(mercatorX: extent.minX, y: extent.minY)
        let east = WebMercator.lonLat(mercatorX: extent.maxX, y: extent.maxY)
        svg += "<text x=\"8\" y=\"\(Int(y))\" fill=\"#555\">\(xml(String(format: "longitude %.4g to %.4g, latitude %.4g to %.4g (Web Mercator)", west.lon, east.lon, west.lat, east.lat)))</text>\n"
        y += 18
        if let level {
            legend("tiles at zoom \(level.zoom): \(level.tiles) of \(inspection.zooms.reduce(0) { $0 + $1.tiles }) "
                   + "(zooms \(zoomList(inspection.zooms.map(\.zoom))))", color: "#3b5f86",
                   swatch: "<rect x=\"8\" y=\"$Y\" width=\"16\" height=\"10\" transform=\"translate(0,-5)\" fill=\"none\" stroke=\"#3b5f86\"/>\n")
        }
        return svg + "</svg>\n"
    }

    /// A layer's legend mark, drawn as its features are: a line for lines, a box otherwise.
    static func swatch(geometryType: String?, color: String) -> String {
        if geometryType.map({ $0.uppercased().hasSuffix("LINESTRING") }) == true {
            return "<line x1=\"8\" y1=\"$Y\" x2=\"24\" y2=\"$Y\" stroke=\"\(color)\" stroke-width=\"2\"/>\n"
        }
        return "<rect x=\"8\" y=\"$Y\" width=\"16\" height=\"10\" transform=\"translate(0,-5)\" fill=\"\(color)\" "
            + "fill-opacity=\"0.45\" stroke=\"\(color)\" stroke-width=\"1.5\"/>\n"
    }

    /// `0-5` for consecutive zooms, `3,5,7` otherwise.
    static func zoomList(_ zooms: [Int]) -> String {
        guard let first = zooms.first, let last = zooms.last else { return "none" }
        return zooms == Array(first...last) && zooms.count > 1 ? "\(first)-\(last)" : zooms.map(String.init).joined(separator: ",")
    }

    static func areaGeometry(_ inspection: PackageInspection) throws -> Geometry {
        try Geometry(geoJSON: Data(inspection.manifest.area.geojson.compact.utf8))
    }

    /// A lon/lat geometry in Web Mercator metres, latitudes clamped to the square world.
    static func mercator(_ g: Geometry) -> Geometry {
        g.mapCoordinates { c in
            let m = WebMercator.mercator(lon: c.x, lat: WebMercator.clampLatitude(c.y))
            return Coordinate(m.x, m.y)
        }
    }

    /// The geometries of the feature layers (at most `limit` each), in EPSG:4326.
    static func featuresIn4326(_ inspection: PackageInspection, limit: Int) throws -> [(String, Geometry)] {
        let db = try Connection(path: inspection.path + "/" + PackageLayout.dataFileName, mode: .readOnly)
        let proj = try PROJContext()
        var result: [(String, Geometry)] = []
        for row in try db.query("SELECT table_name, column_name FROM gpkg_geometry_columns") {
            guard let table = row[0].stringValue, let column = row[1].stringValue,
                  let layer = inspection.layers.first(where: { $0.name == table }) else { continue }
            let transformer = try layer.crs.flatMap { crs in
                crs == "EPSG:4326" ? nil : try Transformer(from: crs, to: "EPSG:4326", context: proj)
            }
            try db.forEachRow("SELECT \(SQL.identifier(column)) FROM \(SQL.identifier(table)) LIMIT \(max(0, limit))") { s in
                guard let blob = s.blob(at: 0), let g = try? GeoPackageBinary(bytes: blob).geometry else { return }
                result.append((table, try transformer?.transform(g) ?? g))
            }
        }
        return result
    }

    /// The tiles of one zoom of the basemap, in XYZ numbering, with their bytes when asked.
    static func tiles(of inspection: PackageInspection, zoom: Int, data: Bool = true) throws -> [(id: TileID, data: Data?)] {
        let db = try Connection(path: inspection.path + "/" + PackageLayout.basemapFileName, mode: .readOnly)
        let dataColumn = data ? "tile_data" : "NULL"
        return try db.query("SELECT tile_column, tile_row, \(dataColumn) FROM tiles WHERE zoom_level = ? ORDER BY tile_row DESC, tile_column",
                            [.integer(Int64(zoom))]).compactMap { r in
            guard let x = r[0].int64Value, let row = r[1].int64Value else { return nil }
            let id = TileID(z: zoom, x: Int(x), tmsY: Int(row))
            guard id.isValid else { return nil }
            return (id, r[2].blobValue.map { Data($0) })
        }
    }

    static func xml(_ s: String) -> String {
        s.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
}

/// Web Mercator metres to SVG pixels, with paths that skip points closer than half a pixel
/// to the last one drawn (a country's coastline at 1000 pixels needs no more).
struct SVGCanvas {
    let extent: Envelope
    let scale: Double

    func pixel(_ c: Coordinate) -> (x: Double, y: Double) {
        ((c.x - extent.minX) * scale, (extent.maxY - c.y) * scale)
    }

    /// A mercator box in pixels.
    func box(_ e: Envelope) -> (x: Double, y: Double, width: Double, height: Double) {
        let a = pixel(Coordinate(e.minX, e.maxY)), b = pixel(Coordinate(e.maxX, e.minY))
        return (a.x, a.y, b.x - a.x, b.y - a.y)
    }

    /// A mercator box as SVG `x`, `y`, `width` and `height` attributes.
    func rectAttributes(_ e: Envelope) -> String {
        let b = box(e)
        return "x=\"\(f(b.x))\" y=\"\(f(b.y))\" width=\"\(f(b.width))\" height=\"\(f(b.height))\""
    }

    func f(_ v: Double) -> String { String(format: "%.1f", v) }

    func path(_ g: Geometry) -> String {
        var d = ""
        func ring(_ r: [Coordinate], close: Bool) {
            guard let first = r.first else { return }
            var last = pixel(first)
            d += "M\(f(last.x)),\(f(last.y))"
            for (i, c) in r.dropFirst().enumerated() {
                let p = pixel(c)
                let isLast = i == r.count - 2
                if !isLast && abs(p.x - last.x) < 0.5 && abs(p.y - last.y) < 0.5 { continue }
                d += "L\(f(p.x)),\(f(p.y))"
                last = p
            }
            if close { d += "Z" }
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

    /// A geometry as SVG elements: circles for points, stroked paths without fill for lines
    /// (a filled line would paint the polygon its ends enclose), one filled path for the rest
    /// (holes by even-odd).
    func shape(_ g: Geometry) -> String {
        switch g {
        case .point(let pt):
            return pt.coordinate.map(circle) ?? ""
        case .multiPoint(let m):
            return m.points.compactMap(\.coordinate).map(circle).joined()
        case .geometryCollection(let c):
            return c.geometries.map(shape).joined()
        case .lineString, .multiLineString:
            let d = path(g)
            return d.isEmpty ? "" : "<path d=\"\(d)\" fill=\"none\"/>\n"
        default:
            let d = path(g)
            return d.isEmpty ? "" : "<path d=\"\(d)\" fill-rule=\"evenodd\"/>\n"
        }
    }

    func circle(_ c: Coordinate) -> String {
        let p = pixel(c)
        return "<circle cx=\"\(f(p.x))\" cy=\"\(f(p.y))\" r=\"4\" fill-opacity=\"0.8\" stroke=\"#ffffff\"/>\n"
    }
}
