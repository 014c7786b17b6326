import Foundation
import Geometry
import PackageFormat
import SQLite
import TilePackage

extension PackageDrawing {
    /// A GeoJSON FeatureCollection (RFC 7946, EPSG:4326) with the area of interest, each
    /// layer's data extent, and each zoom's tile coverage (one MultiPolygon per zoom, tiles
    /// next to each other in a row joined into one rectangle).
    /// - Throws: errors of PROJ (a layer CRS it cannot take to EPSG:4326) or SQLite.
    public static func geoJSON(_ inspection: PackageInspection) throws -> String {
        var features: [String] = []
        func feature(_ g: Geometry, _ properties: JSONValue) -> String {
            "{\"type\":\"Feature\",\"properties\":\(properties.compact),\"geometry\":\(g.geoJSON())}"
        }
        let m = inspection.manifest
        features.append(feature(try areaGeometry(inspection), [
            "kind": .string("area"), "wkt": .string(m.area.wkt), "crs": .string(m.area.crs),
        ]))
        let proj = try PROJContext()
        for layer in inspection.layers {
            guard let e = layer.extent, let crs = layer.crs else { continue }
            let e4326 = crs == "EPSG:4326" ? e : try Transformer(from: crs, to: "EPSG:4326", context: proj).transform(e)
            features.append(feature(.polygon(e4326.polygon), [
                "kind": .string("layer extent"), "layer": .string(layer.name), "crs": .string(crs),
                "geometry_type": JSONValue.string(layer.geometryType),
                "features": .int(layer.count),
            ]))
        }
        for z in inspection.zooms {
            let rows = try tileRuns(of: inspection, zoom: z.zoom)
            guard !rows.isEmpty else { continue }
            let polygons = rows.map { run -> Polygon in
                let west = WebMercator.bounds(of: TileID(z: z.zoom, x: run.minX, y: run.y))
                let east = WebMercator.bounds(of: TileID(z: z.zoom, x: run.maxX, y: run.y))
                return Envelope(minX: west.minX, minY: west.minY, maxX: east.maxX, maxY: east.maxY).polygon
            }
            features.append(feature(.multiPolygon(MultiPolygon(polygons)), [
                "kind": .string("tile coverage"), "zoom": .int(z.zoom), "tiles": .int(z.tiles),
                "min_column": .int(z.minColumn), "max_column": .int(z.maxColumn),
                "min_row": .int(z.minRow), "max_row": .int(z.maxRow), "bytes": .int(z.bytes),
            ]))
        }
        return "{\"type\":\"FeatureCollection\",\"features\":[\n" + features.joined(separator: ",\n") + "\n]}\n"
    }

    /// A zoom's tiles as runs of columns in one XYZ row, without holding every tile.
    static func tileRuns(of inspection: PackageInspection, zoom: Int) throws -> [(y: Int, minX: Int, maxX: Int)] {
        let db = try Connection(path: inspection.path + "/" + PackageLayout.basemapFileName, mode: .readOnly)
        var runs: [(y: Int, minX: Int, maxX: Int)] = []
        try db.forEachRow("SELECT tile_column, tile_row FROM tiles WHERE zoom_level = ? ORDER BY tile_row DESC, tile_column",
                          [.integer(Int64(zoom))]) { s in
            let id = TileID(z: zoom, x: Int(s.int64(at: 0)), tmsY: Int(s.int64(at: 1)))
            guard id.isValid else { return }
            if let last = runs.last, last.y == id.y, last.maxX + 1 == id.x {
                runs[runs.count - 1].maxX = id.x
            } else if runs.last.map({ $0.y == id.y && $0.maxX == id.x }) != true {
                runs.append((id.y, id.x, id.x))
            }
        }
        return runs
    }
}
