import Foundation
import Geometry

/// What one fetch of one tile came to.
public enum TileFetchResult: Sendable, Hashable {
    /// The tile's bytes, exactly as the source stores or serves them (gzip included).
    case data(Data)
    /// The source has no such tile (a missing row; HTTP 404 or 204). Not an error.
    case absent
    /// The source failed to deliver it (retries ran out, a truncated body...). The run goes
    /// on and fails at the end with the count, keeping its work in progress for a resume.
    case failed(String)
}

/// How a source describes itself: the MBTiles metadata keys where it has them.
public struct TileSourceMetadata: Sendable, Hashable {
    /// `png`, `jpg`, `webp`, `pbf`...
    public var format: String?
    public var name: String?
    public var attribution: String?
    public var description: String?
    /// `baselayer` or `overlay`.
    public var type: String?
    /// West, south, east, north in degrees.
    public var bounds: Envelope?
    public var minZoom: Int?
    public var maxZoom: Int?
    /// The vector tiles' layer description (MBTiles `json`), for `pbf`.
    public var json: String?

    public init(format: String? = nil, name: String? = nil, attribution: String? = nil,
                description: String? = nil, type: String? = nil, bounds: Envelope? = nil,
                minZoom: Int? = nil, maxZoom: Int? = nil, json: String? = nil) {
        self.format = format
        self.name = name
        self.attribution = attribution
        self.description = description
        self.type = type
        self.bounds = bounds
        self.minZoom = minZoom
        self.maxZoom = maxZoom
        self.json = json
    }
}

/// Where tiles come from: an MBTiles file, a URL template over HTTP, or anything else that
/// can hand over tiles by number. The copy never knows which.
///
/// - Important: a source is used from one thread at a time; an implementation that works
///   concurrently (HTTP) does so inside `fetch`.
public protocol TileSource: AnyObject {
    /// Says where the tiles come from in words safe to print and to store: never a
    /// credential (no request headers, no URL query string).
    var identity: String { get }

    /// The source's own description of its tiles.
    /// - Throws: `TilePackageError` when the source cannot be read.
    func metadata() throws -> TileSourceMetadata

    /// Fetches tiles and reports each one, in whatever order they complete. Every tile of
    /// `tiles` is reported exactly once. `tiles` is read lazily, as the source is ready for
    /// more (it may be a whole coverage, generated as it goes), and only once.
    /// - Throws: only for failures that make the whole source unusable (an unreadable file,
    ///   cancellation); a single tile's failure is reported as `.failed`.
    func fetch(_ tiles: some Sequence<TileID>, _ report: (TileID, TileFetchResult) throws -> Void) throws

    /// The bytes the tiles of `coverage` would take, from the sizes the source really has
    /// (all of them, or a sample); nil when the source cannot tell without fetching.
    /// - Parameter progress: tiles sampled (or ranges summed) out of the total, as it goes:
    ///   over HTTP the sample takes seconds.
    func estimatedBytes(of coverage: TileCoverage, progress: TileProgress) throws -> Int?

    /// Problems found in the source that do not stop a copy (such as rows outside their
    /// zoom's range, which are never used), in words for a person.
    var warnings: [String] { get }
}

extension TileSource {
    /// ``estimatedBytes(of:progress:)`` with no one to tell how it goes.
    public func estimatedBytes(of coverage: TileCoverage) throws -> Int? {
        try estimatedBytes(of: coverage, progress: { _, _ in })
    }

    public var warnings: [String] { [] }
}

/// A source whose tiles are the rows of an MBTiles file: a copy selects its rectangles
/// inside SQLite (``MBTilesDirectCopy``) rather than hand over tile after tile.
public protocol DirectCopyTileSource: TileSource {
    /// The file the tiles are rows of.
    var reader: MBTilesReader { get }
}
