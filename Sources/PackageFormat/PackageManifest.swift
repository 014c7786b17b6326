import Foundation
import Geometry

/// manifest.json: the package as built. It describes; the sync state inside data.gpkg is the
/// authority. Never holds credentials or URL query strings.
public struct PackageManifest: Sendable, Hashable, Codable {
    /// The one format this code writes and reads.
    public static let currentFormatVersion = 1
    public static let fileName = "manifest.json"

    public var formatVersion: Int
    public var tool: Tool
    /// ISO 8601, UTC.
    public var created: String
    public var replicaID: String
    public var source: Source
    public var area: Area
    public var layers: [Layer]
    public var tiles: Tiles?
    /// Files of the package directory, by name, with their size in bytes when built.
    public var files: [String: Int64]

    // The file's keys are snake_case, like the columns of the databases it describes.
    enum CodingKeys: String, CodingKey {
        case formatVersion = "format_version", tool, created, replicaID = "replica_id", source, area, layers, tiles, files
    }

    public struct Tool: Sendable, Hashable, Codable {
        public var name: String
        public var version: String
        public init(name: String, version: String) {
            self.name = name
            self.version = version
        }
    }

    /// Where the features came from: a file name and path for a local geodatabase, the
    /// generation that the one read transaction saw.
    public struct Source: Sendable, Hashable, Codable {
        public var kind: String
        public var location: String
        public var generation: Int64?
        public init(kind: String, location: String, generation: Int64?) {
            self.kind = kind
            self.location = location
            self.generation = generation
        }
    }

    /// The area of interest: a GeoJSON geometry in EPSG:4326, and the area as given.
    public struct Area: Sendable, Hashable, Codable {
        public var geojson: JSONValue
        public var wkt: String
        public var crs: String
        public init(geojson: JSONValue, wkt: String, crs: String) {
            self.geojson = geojson
            self.wkt = wkt
            self.crs = crs
        }
    }

    /// One table of data.gpkg and how it was cut.
    public struct Layer: Sendable, Hashable, Codable {
        public var name: String
        /// `features` or `attributes` (gpkg_contents' data_type).
        public var dataType: String
        public var geometryType: String?
        /// `EPSG:n` when the CRS has an EPSG code, otherwise the GeoPackage srs_id.
        public var crs: String?
        public var count: Int
        public var cut: LayerCut

        enum CodingKeys: String, CodingKey {
            case name, dataType = "data_type", geometryType = "geometry_type", crs, count, cut
        }
        public init(name: String, dataType: String, geometryType: String?, crs: String?,
                    count: Int, cut: LayerCut) {
            self.name = name
            self.dataType = dataType
            self.geometryType = geometryType
            self.crs = crs
            self.count = count
            self.cut = cut
        }
    }

    public struct Tiles: Sendable, Hashable, Codable {
        public var file: String
        /// The zooms the basemap really holds (the requested ones when it holds none).
        public var minZoom: Int
        public var maxZoom: Int
        public var count: Int
        /// The tile source without credentials or a query string.
        public var source: String
        /// The zooms asked for (`--zoom`), when the source lacked some of their tiles they may
        /// be more than the basemap holds; nil in manifests written before they were kept.
        public var requestedMinZoom: Int?
        public var requestedMaxZoom: Int?

        enum CodingKeys: String, CodingKey {
            case file, minZoom = "min_zoom", maxZoom = "max_zoom", count, source
            case requestedMinZoom = "requested_min_zoom", requestedMaxZoom = "requested_max_zoom"
        }
        public init(file: String, minZoom: Int, maxZoom: Int, count: Int, source: String,
                    requestedMinZoom: Int? = nil, requestedMaxZoom: Int? = nil) {
            self.file = file
            self.minZoom = minZoom
            self.maxZoom = maxZoom
            self.count = count
            self.source = source
            self.requestedMinZoom = requestedMinZoom
            self.requestedMaxZoom = requestedMaxZoom
        }

        /// The zooms asked for, or those held where the manifest does not say.
        public var requestedZooms: ClosedRange<Int> { (requestedMinZoom ?? minZoom)...(requestedMaxZoom ?? maxZoom) }
    }

    public init(formatVersion: Int = PackageManifest.currentFormatVersion, tool: Tool, created: String,
                replicaID: String, source: Source, area: Area, layers: [Layer], tiles: Tiles?,
                files: [String: Int64]) {
        self.formatVersion = formatVersion
        self.tool = tool
        self.created = created
        self.replicaID = replicaID
        self.source = source
        self.area = area
        self.layers = layers
        self.tiles = tiles
        self.files = files
    }

    /// Pretty, key-sorted JSON, so two builds of the same thing differ only where they must.
    public func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self)
    }

    /// Reads a manifest.
    /// - Throws: ``PackageFormatError`` naming the file: `notAPackage` when it is missing,
    ///   `malformed` when it is not JSON, lacks a key or holds one of the wrong type (naming
    ///   the key), or is of another format version.
    public static func read(from url: URL) throws(PackageFormatError) -> PackageManifest {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
            throw PackageFormatError(.notAPackage, "\(url.deletingLastPathComponent().path) has no \(url.lastPathComponent)")
        }
        guard !isDirectory.boolValue else {
            throw PackageFormatError(.malformed, "\(url.path) is a directory, not a package manifest")
        }
        let data: Data
        do { data = try Data(contentsOf: url) } catch {
            let reason = FileManager.default.isReadableFile(atPath: url.path) ? error.localizedDescription : "permission denied"
            throw PackageFormatError(.malformed, "cannot read \(url.path): \(reason)")
        }
        let manifest: PackageManifest
        let decoder = JSONDecoder()
        // Packages built before the keys were snake_case wrote them in camelCase
        // (`formatVersion`, `replicaID`); read those as the same keys.
        decoder.keyDecodingStrategy = .custom { path in
            SnakeCaseKey(camelCase: path.last?.stringValue ?? "")
        }
        do { manifest = try decoder.decode(PackageManifest.self, from: data) } catch {
            // Foundation's JSON parser does not say where the text stops being JSON; ours does.
            let words = JSONValue.syntaxProblem(in: String(decoding: data, as: UTF8.self)).map { "it is not valid JSON: \($0)" }
                ?? (error as? DecodingError)?.words ?? error.localizedDescription
            throw PackageFormatError(.malformed, "\(url.path) is not a package manifest: \(words)")
        }
        guard manifest.formatVersion == currentFormatVersion else {
            throw PackageFormatError(.malformed, "\(url.path) has package format version \(manifest.formatVersion); "
                + "this pkgbuild reads version \(currentFormatVersion)")
        }
        return manifest
    }
}

/// How a layer was cut at build time; sync treats such layers differently (clipped layers sync
/// attribute edits only, reprojected ones transform edits back).
public struct LayerCut: Sendable, Hashable, Codable {
    /// Geometries were cut to the area (`--clip`).
    public var clipped: Bool
    /// Rows were filtered by a `--where` expression (the expression).
    public var filter: String?
    /// Geometries were reprojected from the source CRS (the source CRS).
    public var reprojectedFrom: String?
    /// Only the table's schema was copied (`--schema-only`).
    public var schemaOnly: Bool
    /// Rows were chosen by area; false for attribute tables taken whole.
    public var spatial: Bool
    /// Rows outside the area were added because they are related to rows inside it.
    public var relatedRows: Int
    /// The table holds only rows related to rows chosen by area, however many that was (zero
    /// included), not the whole table. Packages built before it was recorded lack it (false).
    public var relatedOnly: Bool

    enum CodingKeys: String, CodingKey {
        case clipped, filter, reprojectedFrom = "reprojected_from", schemaOnly = "schema_only", spatial,
             relatedRows = "related_rows", relatedOnly = "related_only"
    }

    public init(clipped: Bool = false, filter: String? = nil, reprojectedFrom: String? = nil,
                schemaOnly: Bool = false, spatial: Bool = false, relatedRows: Int = 0, relatedOnly: Bool = false) {
        self.clipped = clipped
        self.filter = filter
        self.reprojectedFrom = reprojectedFrom
        self.schemaOnly = schemaOnly
        self.spatial = spatial
        self.relatedRows = relatedRows
        self.relatedOnly = relatedOnly
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(clipped: try c.decode(Bool.self, forKey: .clipped), filter: try c.decodeIfPresent(String.self, forKey: .filter),
                  reprojectedFrom: try c.decodeIfPresent(String.self, forKey: .reprojectedFrom),
                  schemaOnly: try c.decode(Bool.self, forKey: .schemaOnly), spatial: try c.decode(Bool.self, forKey: .spatial),
                  relatedRows: try c.decode(Int.self, forKey: .relatedRows),
                  relatedOnly: try c.decodeIfPresent(Bool.self, forKey: .relatedOnly) ?? false)
    }
}

/// A coding key spelt in snake_case: `replicaID` and `replica_id` both become `replica_id`.
/// Only keys holding capitals change, so GeoJSON members and file names pass unchanged.
private struct SnakeCaseKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }

    init(camelCase key: String) {
        var out = ""
        var previousWasLower = false
        for character in key {
            if character.isUppercase {
                // A run of capitals is one word: `replicaID` -> `replica_id`.
                if previousWasLower { out += "_" }
                out += character.lowercased()
                previousWasLower = false
            } else {
                out.append(character)
                previousWasLower = character.isLowercase || character.isNumber
            }
        }
        stringValue = out
    }

    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}
