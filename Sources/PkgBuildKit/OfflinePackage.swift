/// An offline package (`AREA.pkg/` with its `data.gpkg`) opened for a field or desktop app,
/// and for the `identify`, `related` and `edit` commands, which are thin over it.
///
/// ```swift
/// let package = try OfflinePackage(at: "Alaska.pkg")
/// let hits = try package.identify(at: Coordinate(-150.5, 63.3))
/// ```
///
/// Edits are plain SQL writes through a connection that has the GeoPackage `ST_*` functions,
/// so the package's change-tracking triggers record them exactly as they record an edit
/// made in QGIS or with GDAL; `sync` then takes them home.
import Foundation
import Geodatabase
import Geometry
import PackageFormat
import SQLite

/// An open offline package.
///
/// Safe to share between threads: every call takes the package's lock, so calls run one at
/// a time on its one connection and its own GEOS and PROJ contexts. An app that wants reads
/// in parallel with a long sync opens the package a second time.
public final class OfflinePackage: @unchecked Sendable {
    /// The package directory (or the GeoPackage, when opened from a bare `.gpkg`).
    public let url: URL
    /// The GeoPackage holding the layers.
    public let dataURL: URL
    /// The layers, fields, constraints and relationships, as read when the package was opened.
    public let schema: GeoPackageSchema

    private let lock = NSLock()
    // Everything below is touched only with `lock` held.
    private let geoPackage: GeoPackage
    let geos: GEOSContext
    let proj: PROJContext
    private var crsCache: [String: CoordinateReferenceSystem] = [:]
    private var transformerCache: [String: Transformer] = [:]

    /// Opens a package.
    /// - Parameters:
    ///   - path: the `AREA.pkg` directory, or a GeoPackage file.
    ///   - readOnly: open without write access (identify, related, queries only).
    /// - Throws: ``PackageError`` (`notAPackage`) when there is no GeoPackage at `path`.
    public init(at path: String, readOnly: Bool = false) throws(PackageError) {
        let url = URL(fileURLWithPath: path).standardizedFileURL
        let files: PackageFiles
        do { files = try PackageFiles(url, expecting: .editing) } catch { throw PackageError(.notAPackage, error.message) }
        let dataURL = files.data
        self.url = url
        self.dataURL = dataURL
        do {
            geoPackage = try GeoPackage(path: dataURL.path, readOnly: readOnly)
            schema = try GeoPackageSchema.read(from: geoPackage.connection)
            geos = try GEOSContext()
            proj = try PROJContext()
        } catch {
            throw PackageError.wrapping(error, context: path)
        }
    }

    /// The feature and attribute tables, in `gpkg_contents` order.
    public var layers: [LayerInfo] {
        schema.layers.filter { $0.kind == .features || $0.kind == .attributes }
    }

    // MARK: - Internals shared by the operations

    /// Runs `body` with the lock held, turning any error into a ``PackageError``.
    func locked<T>(_ body: (Connection) throws -> T) throws(PackageError) -> T {
        lock.lock()
        defer { lock.unlock() }
        do {
            return try body(geoPackage.connection)
        } catch {
            throw PackageError.wrapping(error, context: nil)
        }
    }

    /// The feature or attribute table of that name (any letter case).
    func layer(named name: String) throws -> LayerInfo {
        guard let layer = schema.layer(named: name), layer.kind == .features || layer.kind == .attributes else {
            let names = layers.map(\.name).joined(separator: ", ")
            throw PackageError(.unknownLayer, "no layer named '\(name)' in \(url.lastPathComponent) (layers: \(names))")
        }
        guard layer.primaryKey != nil else {
            throw PackageError(.unknownLayer, "layer '\(layer.name)' has no integer primary key, so its rows cannot be addressed")
        }
        return layer
    }

    /// The feature layer of that name: one with a geometry column.
    func featureLayer(named name: String) throws -> (LayerInfo, GeometryColumnInfo) {
        let layer = try layer(named: name)
        guard let geometry = layer.geometryColumn else {
            throw PackageError(.invalidArgument, "layer '\(layer.name)' is an attribute table: it has no geometry")
        }
        return (layer, geometry)
    }

    /// The CRS of a layer's geometry column, made once per package.
    func crs(of geometry: GeometryColumnInfo, layer: String) throws -> CoordinateReferenceSystem {
        guard let srs = schema.spatialReferenceSystem(id: geometry.srsID) else {
            throw PackageError(.storage, "layer '\(layer)' uses srs_id \(geometry.srsID), which gpkg_spatial_ref_sys lacks")
        }
        return try crs(srs.projDefinition)
    }

    /// A CRS from a definition (`EPSG:3338`, WKT, PROJ string), made once per package.
    func crs(_ definition: String) throws -> CoordinateReferenceSystem {
        if let cached = crsCache[definition] { return cached }
        // An unknown definition's GeometryError becomes PackageError(.unknownCRS) in `locked`.
        let crs = try CoordinateReferenceSystem(definition, context: proj)
        crsCache[definition] = crs
        return crs
    }

    /// A transformer between two CRSs, made once per package (identity pairs included: PROJ
    /// gives a no-op operation, which keeps the callers free of special cases).
    func transformer(from source: CoordinateReferenceSystem, to target: CoordinateReferenceSystem) throws -> Transformer {
        let key = source.definition + "\u{1}" + target.definition
        if let cached = transformerCache[key] { return cached }
        let transformer = try Transformer(from: source, to: target, context: proj)
        transformerCache[key] = transformer
        return transformer
    }
}
