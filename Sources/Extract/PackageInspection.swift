import Foundation
import Geometry
import SQLite

/// What `inspect` reports: the package as built (manifest) and as it is now (data.gpkg and
/// basemap.mbtiles read live).
public struct PackageInspection: Sendable, Hashable {
    public struct Layer: Sendable, Hashable {
        public var name: String
        public var dataType: String
        public var geometryType: String?
        public var crs: String?
        public var srsID: Int64?
        public var count: Int
        /// The extent of the rows now in the table (from its R-tree), in the layer's CRS.
        public var extent: Envelope?
        /// Local edits not yet synced; nil when the package does not track changes.
        public var pendingEdits: Int?
        public var cut: LayerCut?
    }

    public struct Zoom: Sendable, Hashable {
        public var zoom: Int
        public var tiles: Int
        public var minColumn: Int, maxColumn: Int
        /// TMS rows, as MBTiles stores them.
        public var minRow: Int, maxRow: Int
        public var bytes: Int64
    }

    public var path: String
    public var manifest: PackageManifest
    public var layers: [Layer]
    public var zooms: [Zoom]
    /// File sizes in bytes now.
    public var files: [String: Int64]
    public var warnings: [String]
}

/// Reads a package for `inspect`.
public enum PackageInspector {
    /// Reads the manifest and the live state of the package's files.
    /// - Throws: `ExtractError` (`.package`) when the path is not a package.
    public static func inspect(_ path: String) throws -> PackageInspection {
        let root = URL(fileURLWithPath: path)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: root.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw ExtractError(.package, "\(path) is not a package directory")
        }
        let manifest = try PackageManifest.read(from: root.appendingPathComponent(PackageManifest.fileName))
        var warnings: [String] = []
        var files: [String: Int64] = [:]
        for name in [PackageManifest.fileName, PackageDirectory.dataFileName, PackageDirectory.basemapFileName] {
            let url = root.appendingPathComponent(name)
            if let size = (try? FileManager.default.attributesOfItem(atPath: url.path))?[.size] as? Int64 {
                files[name] = size
            } else if manifest.files[name] != nil {
                warnings.append("\(name) is listed in the manifest but missing")
            }
        }
        var layers: [PackageInspection.Layer] = []
        let dataURL = root.appendingPathComponent(PackageDirectory.dataFileName)
        if files[PackageDirectory.dataFileName] != nil {
            let db: Connection
            do { db = try Connection(path: dataURL.path, mode: .readOnly) } catch {
                throw ExtractError(.package, "cannot open \(dataURL.path): \(error)")
            }
            do {
                if try db.scalar("PRAGMA application_id")?.int64Value != 1_196_444_487 {
                    warnings.append("data.gpkg does not carry the GeoPackage application id")
                }
                let tracked = try db.scalar("SELECT 1 FROM sqlite_master WHERE name = 'pkgbuild_edits'") != nil
                for row in try db.query("""
                    SELECT c.table_name, c.data_type, g.geometry_type_name, g.srs_id, g.column_name,
                           s.organization, s.organization_coordsys_id, c.min_x, c.min_y, c.max_x, c.max_y
                    FROM gpkg_contents c LEFT JOIN gpkg_geometry_columns g ON g.table_name = c.table_name
                    LEFT JOIN gpkg_spatial_ref_sys s ON s.srs_id = g.srs_id
                    WHERE c.data_type IN ('features', 'attributes') ORDER BY c.rowid
                    """) {
                    guard let name = row[0].stringValue else { continue }
                    let count = Int(try db.scalar("SELECT count(*) FROM \(SQL.identifier(name))")?.int64Value ?? 0)
                    var extent: Envelope?
                    if let column = row[4].stringValue {
                        let rtree = SQL.identifier("rtree_\(name)_\(column)")
                        let e = try db.query("SELECT min(minx), min(miny), max(maxx), max(maxy) FROM \(rtree)")
                        if let r = e.first, let x0 = r[0].doubleValue, let y0 = r[1].doubleValue,
                           let x1 = r[2].doubleValue, let y1 = r[3].doubleValue {
                            extent = Envelope(minX: x0, minY: y0, maxX: x1, maxY: y1)
                        }
                        if let declared = row[7].doubleValue, let e = extent, abs(declared - e.minX) > 1e-3 * max(1, abs(e.minX)) {
                            warnings.append("layer \(name): gpkg_contents extent differs from the data's extent")
                        }
                    }
                    var pending: Int?
                    if tracked {
                        pending = Int(try db.scalar("SELECT count(*) FROM pkgbuild_edits WHERE table_name = ?",
                                                    [.text(name)])?.int64Value ?? 0)
                    }
                    let crs: String? = row[5].stringValue.map { org in
                        org.uppercased() == "EPSG" ? "EPSG:\(row[6].int64Value ?? 0)" : "srs_id:\(row[3].int64Value ?? 0)"
                    }
                    let built = manifest.layers.first { $0.name == name }
                    if built == nil { warnings.append("layer \(name) is not in the manifest") }
                    layers.append(.init(name: name, dataType: row[1].stringValue ?? "", geometryType: row[2].stringValue,
                                        crs: crs, srsID: row[3].int64Value, count: count, extent: extent,
                                        pendingEdits: pending, cut: built?.cut))
                }
            } catch let error as SQLiteError {
                throw ExtractError(.package, "cannot read \(dataURL.path): \(error)")
            }
            for built in manifest.layers where !layers.contains(where: { $0.name == built.name }) {
                warnings.append("layer \(built.name) of the manifest is missing from data.gpkg")
            }
        }
        var zooms: [PackageInspection.Zoom] = []
        let basemapURL = root.appendingPathComponent(PackageDirectory.basemapFileName)
        if files[PackageDirectory.basemapFileName] != nil {
            do {
                let db = try Connection(path: basemapURL.path, mode: .readOnly)
                for r in try db.query("""
                    SELECT zoom_level, count(*), min(tile_column), max(tile_column), min(tile_row), max(tile_row),
                           sum(length(tile_data))
                    FROM tiles GROUP BY zoom_level ORDER BY zoom_level
                    """) {
                    let v = r.map { Int($0.int64Value ?? 0) }
                    zooms.append(.init(zoom: v[0], tiles: v[1], minColumn: v[2], maxColumn: v[3], minRow: v[4], maxRow: v[5],
                                       bytes: r[6].int64Value ?? 0))
                }
            } catch {
                warnings.append("basemap.mbtiles cannot be read: \(error)")
            }
        }
        return PackageInspection(path: root.path, manifest: manifest, layers: layers, zooms: zooms,
                                 files: files, warnings: warnings)
    }
}
