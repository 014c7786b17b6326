import Foundation
import Geometry
import PackageFormat
import SQLite
import TilePackage

extension PackageInspector {
    /// Metadata every package basemap carries (MBTiles 1.3 requires name and format; the
    /// package format promises the rest), plus `json` for vector tiles.
    static let requiredTileMetadata = ["name", "format", "bounds", "center", "minzoom", "maxzoom"]

    /// Reads basemap.mbtiles: per zoom, the tile count, column and TMS row ranges and bytes;
    /// and checks its metadata, its zoom range and that every tile meets the area of interest.
    static func readBasemap(_ path: String, manifest: PackageManifest,
                            warnings: inout [PackageInspection.Warning]) throws -> ([PackageInspection.Zoom], String?) {
        let db = try Connection(path: path, mode: .readOnly)
        var zooms: [PackageInspection.Zoom] = []
        for r in try db.query("""
            SELECT zoom_level, count(*), min(tile_column), max(tile_column), min(tile_row), max(tile_row),
                   sum(length(tile_data))
            FROM tiles GROUP BY zoom_level ORDER BY zoom_level
            """) {
            let v = r.map { Int($0.int64Value ?? 0) }
            zooms.append(.init(zoom: v[0], tiles: v[1], minColumn: v[2], maxColumn: v[3], minRow: v[4], maxRow: v[5],
                               bytes: r[6].int64Value ?? 0))
        }
        let reader = try MBTilesReader(path: path)
        let metadata = try reader.metadataValues().filter { !$0.value.isEmpty }
        let format = metadata["format"]
        var missing = requiredTileMetadata.filter { metadata[$0] == nil }
        if format == "pbf" && metadata["json"] == nil { missing.append("json") }
        if !missing.isEmpty {
            warnings.append(.init(.tileMetadata, "basemap.mbtiles metadata lacks \(missing.joined(separator: ", "))"))
        }
        checkZoomRange(zooms, metadata: metadata, manifest: manifest, warnings: &warnings)
        let skipped = skippedTiles(metadata, warnings: &warnings)
        try checkCoverage(db, reader: reader, zooms: zooms, manifest: manifest, skipped: skipped, warnings: &warnings)
        return (zooms, format)
    }

    static func checkZoomRange(_ zooms: [PackageInspection.Zoom], metadata: [String: String], manifest: PackageManifest,
                               warnings: inout [PackageInspection.Warning]) {
        if let tiles = manifest.tiles {
            let outside = zooms.filter { !(tiles.minZoom...tiles.maxZoom).contains($0.zoom) }
            if !outside.isEmpty {
                let n = outside.reduce(0) { $0 + $1.tiles }
                warnings.append(.init(.tileZoomRange, "basemap.mbtiles has \(n) tile\(n == 1 ? "" : "s") at zoom "
                    + "\(outside.map { String($0.zoom) }.joined(separator: ", ")), outside the manifest's range "
                    + "\(tiles.minZoom)-\(tiles.maxZoom)"))
            }
        }
        if let first = zooms.first?.zoom, let last = zooms.last?.zoom,
           let minZoom = metadata["minzoom"].flatMap({ Int($0) }), let maxZoom = metadata["maxzoom"].flatMap({ Int($0) }),
           minZoom != first || maxZoom != last {
            warnings.append(.init(.tileZoomRange, "basemap.mbtiles metadata says zooms \(minZoom)-\(maxZoom) "
                + "but its tiles are at zooms \(first)-\(last)"))
        }
    }

    /// Every tile should be one whose square's interior meets the area's interior, as create
    /// chose them, and every such tile of the zooms asked for should be there; tiles that
    /// cannot exist at their zoom are counted with those outside.
    static func checkCoverage(_ db: Connection, reader: MBTilesReader, zooms: [PackageInspection.Zoom],
                              manifest: PackageManifest, skipped: SkippedTiles?,
                              warnings: inout [PackageInspection.Warning]) throws {
        let invalid = try reader.outOfRangeRows()?.count ?? 0
        if invalid > 0 {
            warnings.append(.init(.tilesOutsideArea, "basemap.mbtiles has \(invalid) tile\(invalid == 1 ? "" : "s") "
                + "whose column or row cannot exist at its zoom"))
        }
        let valid = zooms.map(\.zoom).filter { (0...TileID.maxZoom).contains($0) }
        let requested = manifest.tiles?.requestedZooms
        guard let first = [valid.first, requested?.lowerBound].compactMap({ $0 }).min(),
              let last = [valid.last, requested?.upperBound].compactMap({ $0 }).max(),
              let area = try? Geometry(geoJSON: Data(manifest.area.geojson.compact.utf8)) else { return }
        let coverage: TileCoverage
        do { coverage = try TileCoverage(lonLatArea: area, zooms: first...last, context: try GEOSContext()) } catch {
            warnings.append(.init(.tilesOutsideArea, "the tiles could not be checked against the area of interest: \(error)"))
            return
        }
        var outside: [(zoom: Int, count: Int, example: TileID)] = []
        var inside: [Int: Int] = [:]
        for z in valid {
            let found = try tilesAgainstCoverage(db, coverage: coverage, zoom: z)
            inside[z] = found.inside
            if let example = found.outsideExample { outside.append((z, found.outside, example)) }
        }
        if !outside.isEmpty {
            let n = outside.reduce(0) { $0 + $1.count }
            let detail = outside.map { "\($0.count) at zoom \($0.zoom), e.g. \($0.example)" }.joined(separator: "; ")
            warnings.append(.init(.tilesOutsideArea, "basemap.mbtiles has \(n) tile\(n == 1 ? "" : "s") "
                + "outside the area of interest: \(detail)"))
        }
        if let requested {
            checkAbsent(coverage: coverage, inside: inside, requested: requested, failed: skipped?.perZoom ?? [:],
                        warnings: &warnings)
        }
    }

    /// The zoom's tiles inside the coverage and outside it (with one of them to show).
    private static func tilesAgainstCoverage(_ db: Connection, coverage: TileCoverage, zoom z: Int) throws
        -> (inside: Int, outside: Int, outsideExample: TileID?) {
        // The coverage's rectangles by XYZ row, so each tile is looked up without a list of all tiles.
        var rows: [Int: [ClosedRange<Int>]] = [:]
        for r in coverage.ranges(zoom: z) {
            for y in r.minY...r.maxY { rows[y, default: []].append(r.minX...r.maxX) }
        }
        var inside = 0, outside = 0
        var example: TileID?
        try db.forEachRow("SELECT tile_column, tile_row FROM tiles WHERE zoom_level = ?", [.integer(Int64(z))]) { s in
            let tile = TileID(z: z, x: Int(s.int64(at: 0)), tmsY: Int(s.int64(at: 1)))
            guard tile.isValid else { return }
            if rows[tile.y]?.contains(where: { $0.contains(tile.x) }) ?? false {
                inside += 1
            } else {
                outside += 1
                if example == nil { example = tile }
            }
        }
        return (inside, outside, example)
    }

    /// Per zoom asked for, the tiles the area takes that the basemap does not hold, apart from
    /// those the build left out on failures (`failed`, warned of as such).
    private static func checkAbsent(coverage: TileCoverage, inside: [Int: Int], requested: ClosedRange<Int>,
                                    failed: [Int: Int], warnings: inout [PackageInspection.Warning]) {
        var total = 0
        let perZoom = requested.compactMap { z -> String? in
            let asked = coverage.count(zoom: z), missing = max(0, asked - (inside[z] ?? 0) - (failed[z] ?? 0))
            guard missing > 0 else { return nil }
            total += missing
            return missing == asked ? "zoom \(z): all \(asked)" : "zoom \(z): \(missing) of \(asked)"
        }
        guard total > 0 else { return }
        warnings.append(.init(.tilesAbsent, "basemap.mbtiles lacks \(total) tile\(total == 1 ? "" : "s") the area takes at "
            + "zoom \(requested.lowerBound)-\(requested.upperBound) (\(perZoom.joined(separator: "; "))): the tile source "
            + "had none there when the package was built, or they were lost since"))
    }

    /// The tiles the build finished without (`--skip-failed`), as basemap.mbtiles records
    /// them, warned of with the first of them and why; nil when none were left out.
    static func skippedTiles(_ metadata: [String: String], warnings: inout [PackageInspection.Warning]) -> SkippedTiles? {
        guard let value = metadata[SkippedTiles.metadataName] else { return nil }
        guard let skipped = try? SkippedTiles(metadataValue: value) else {
            warnings.append(.init(.tileMetadata, "basemap.mbtiles metadata \(SkippedTiles.metadataName) is not a list of failed tiles"))
            return nil
        }
        let perZoom = skipped.perZoom.sorted { $0.key < $1.key }.map { "zoom \($0.key): \($0.value)" }.joined(separator: "; ")
        var text = "basemap.mbtiles was finished without \(skipped.count) tile\(skipped.count == 1 ? "" : "s") the source failed "
            + "to deliver (--skip-failed; \(perZoom)): "
            + skipped.listed.map { "\($0.tile) (\($0.reason))" }.joined(separator: "; ")
        if skipped.count > skipped.listed.count { text += "; and \(skipped.count - skipped.listed.count) more" }
        warnings.append(.init(.tilesFailed, text + "; building the package again fetches them"))
        return skipped
    }
}
