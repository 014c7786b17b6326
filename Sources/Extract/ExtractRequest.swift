import Geodatabase
import TilePackage

/// What `create` and `estimate` are asked to do: the command line's options as values.
public struct ExtractRequest: Sendable, Hashable {
    /// `minx,miny,maxx,maxy`, WKT, or `@file.geojson`.
    public var area: String
    /// The CRS the area is given in (`EPSG:n`, WKT or PROJ); nil is EPSG:4326.
    public var areaCRS: String?
    /// The source GeoPackage.
    public var source: String
    /// Layers to take; empty takes every feature and attribute table.
    public var layers: [String]
    /// `--where` filters, in the filter grammar (see `FilterExpression`); `create` refuses
    /// any other text, SQLite's included.
    public var filters: [WhereFilter]
    /// Cut geometries to the area (dropping features that only touch it).
    public var clip: Bool
    /// Layers copied with their schema only.
    public var schemaOnly: [String]
    /// Bring rows related to the area's rows, one hop along every relationship.
    public var includeRelated: Bool
    /// Count and skip features whose geometry cannot be decoded, instead of failing.
    public var skipInvalid: Bool
    /// The package CRS; nil keeps each layer's CRS.
    public var crs: String?
    /// The basemap; nil builds a package without one.
    public var tiles: TilesRequest?
    /// Register the replica at the source (false: `--no-register`).
    public var register: Bool
    /// The package directory to write (`AREA.pkg`).
    public var output: String
    /// Replace an existing package.
    public var force: Bool

    public init(area: String, areaCRS: String? = nil, source: String, layers: [String] = [],
                filters: [WhereFilter] = [], clip: Bool = false, schemaOnly: [String] = [],
                includeRelated: Bool = true, skipInvalid: Bool = false, crs: String? = nil,
                tiles: TilesRequest? = nil, register: Bool = true, output: String, force: Bool = false) {
        self.area = area
        self.areaCRS = areaCRS
        self.source = source
        self.layers = layers
        self.filters = filters
        self.clip = clip
        self.schemaOnly = schemaOnly
        self.includeRelated = includeRelated
        self.skipInvalid = skipInvalid
        self.crs = crs
        self.tiles = tiles
        self.register = register
        self.output = output
        self.force = force
    }

    /// Identifies the request for resuming an interrupted build: the same arguments give the
    /// same fingerprint (`--force` aside, which says nothing about the content).
    public var fingerprint: String {
        var parts = [area, areaCRS ?? "", source, layers.joined(separator: ","),
                     filters.map { "\($0.layer):\($0.expression)" }.joined(separator: "\u{1}"),
                     "\(clip)", schemaOnly.joined(separator: ","), "\(includeRelated)", "\(skipInvalid)",
                     crs ?? "", "\(register)"]
        if let tiles { parts += [tiles.source, "\(tiles.minZoom)-\(tiles.maxZoom)", "\(tiles.maxTiles)"] }
        return parts.joined(separator: "\u{0}")
    }

    /// The files the run reads, by role: the output may never replace one of them.
    public var inputs: [(role: String, path: String)] {
        var inputs = [(role: "the features source", path: source)]
        if let tiles, !TileURLTemplate.isURL(tiles.source) { inputs.append((role: "the tile source", path: tiles.source)) }
        return inputs
    }
}

/// The basemap part of a request.
public struct TilesRequest: Sendable, Hashable {
    /// An MBTiles path or an XYZ URL template.
    public var source: String
    public var minZoom: Int
    public var maxZoom: Int
    /// The most tiles the basemap may take: more is refused before any work.
    public var maxTiles: Int
    public var concurrency: Int
    public var headers: [String]
    /// At most this many HTTP requests a second (`--rate`); nil for no limit.
    public var requestsPerSecond: Double?
    /// Sent as `User-Agent` to an HTTP source: `pkgbuild/<version>`, as `tiles` sends it.
    public var userAgent: String
    /// Finish the basemap without the tiles whose retries ran out, listing them
    /// (`--skip-failed`, as `tiles` takes it), instead of failing the build. Not part of the
    /// fingerprint: a build that failed on them may be resumed with it.
    public var skipFailed: Bool

    public init(source: String, minZoom: Int, maxZoom: Int, maxTiles: Int = TileCoverage.defaultMaxTiles,
                concurrency: Int = 8, headers: [String] = [], requestsPerSecond: Double? = nil,
                userAgent: String = "pkgbuild", skipFailed: Bool = false) {
        self.source = source
        self.minZoom = minZoom
        self.maxZoom = maxZoom
        self.maxTiles = maxTiles
        self.concurrency = concurrency
        self.headers = headers
        self.requestsPerSecond = requestsPerSecond
        self.userAgent = userAgent
        self.skipFailed = skipFailed
    }
}
