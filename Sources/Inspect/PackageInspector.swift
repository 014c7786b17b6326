import Foundation
import Geometry
import PackageFormat
import SQLite

/// Reads a package for `inspect`: the manifest, then data.gpkg and basemap.mbtiles as they are
/// now, checking each against the other and against the GeoPackage and MBTiles rules.
///
/// Opens every file read-only; never writes anything, the package's source included (whose
/// replica registry it reads when the source is reachable from here).
public enum PackageInspector {
    /// How much work the checks may do.
    public struct Options: Sendable, Hashable {
        /// Geometries per layer checked with GEOS for validity: all when the layer has at most
        /// this many, else an even sample of this many.
        public var validityLimit: Int
        /// Whether to look up the replica in the source's registry when the source file exists.
        public var readSource: Bool

        public init(validityLimit: Int = 100_000, readSource: Bool = true) {
            self.validityLimit = validityLimit
            self.readSource = readSource
        }
    }

    /// The files a package may have, in the order they are reported.
    static let fileNames = [PackageManifest.fileName, PackageLayout.dataFileName, PackageLayout.dataFileName + "-wal",
                            PackageLayout.dataFileName + "-journal", PackageLayout.basemapFileName,
                            PackageLayout.basemapFileName + "-journal"]

    /// Reads the manifest and the live state of the package's files.
    /// - Throws: ``PackageFormatError`` when the path is not a package directory, its manifest
    ///   cannot be read, or data.gpkg cannot be opened as SQLite. Everything else wrong with the
    ///   package is a warning in the result.
    public static func inspect(_ path: String, options: Options = Options()) throws -> PackageInspection {
        let package = try PackageFiles(URL(fileURLWithPath: path), expecting: .directory)
        let root = package.directory
        // Inspect describes the package as built: without a manifest there is nothing to describe.
        let manifest = try package.manifest ?? PackageManifest.read(from: package.manifestURL)
        var warnings: [PackageInspection.Warning] = []
        var files: [String: Int64] = [:]
        for name in fileNames {
            let url = root.appendingPathComponent(name)
            if let size = (try? FileManager.default.attributesOfItem(atPath: url.path))?[.size] as? Int64 {
                files[name] = size
            } else if manifest.files[name] != nil {
                warnings.append(.init(.missingFile, "\(name) is listed in the manifest but missing"))
            }
        }
        if files[PackageLayout.basemapFileName] == nil, manifest.tiles != nil, manifest.files[PackageLayout.basemapFileName] == nil {
            warnings.append(.init(.missingFile, "the manifest describes tiles but \(PackageLayout.basemapFileName) is missing"))
        }

        var layers: [PackageInspection.Layer] = []
        var replica = PackageInspection.Replica(openConflicts: 0, unresolvedConflicts: 0)
        let dataURL = package.data
        if files[PackageLayout.dataFileName] != nil {
            let db: Connection
            do { db = try Connection(path: dataURL.path, mode: .readOnly) } catch {
                throw PackageFormatError(.malformed, "cannot open \(dataURL.path): \((error as? SQLiteError)?.reasonAfterPath ?? "\(error)")")
            }
            do {
                layers = try readLayers(db, manifest: manifest, options: options, warnings: &warnings)
                replica = try readReplica(db, warnings: &warnings)
            } catch let error as SQLiteError {
                throw PackageFormatError(.malformed, "cannot read \(dataURL.path): \(error)")
            }
            checkManifest(manifest, layers: layers, replicaID: replica.id, warnings: &warnings)
            if options.readSource, let id = replica.id {
                replica.sourceState = sourceRegistration(of: id, values: try PackageMetadata.values(in: db),
                                                         source: manifest.source, package: root.path, warnings: &warnings)
            }
        }

        var zooms: [PackageInspection.Zoom] = []
        var format: String?
        let basemapURL = package.basemapURL
        if files[PackageLayout.basemapFileName] != nil {
            do {
                (zooms, format) = try readBasemap(basemapURL.path, manifest: manifest, warnings: &warnings)
            } catch {
                warnings.append(.init(.unreadableBasemap, "basemap.mbtiles cannot be read: \(error)"))
            }
        }
        return PackageInspection(path: root.path, manifest: manifest, layers: layers, zooms: zooms, tileFormat: format,
                                 replica: replica, files: files, warnings: warnings)
    }
}
