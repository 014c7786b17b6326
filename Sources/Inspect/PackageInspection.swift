import Foundation
import Geometry
import PackageFormat

/// What `inspect` reports: the package as built (manifest) and as it is now (data.gpkg and
/// basemap.mbtiles read live), with the warnings found while reading it.
public struct PackageInspection: Sendable, Hashable {
    /// One feature or attribute table of data.gpkg, read now.
    public struct Layer: Sendable, Hashable {
        public var name: String
        /// `features` or `attributes` (gpkg_contents' data_type).
        public var dataType: String
        public var geometryType: String?
        /// `EPSG:n`, or `srs_id:n` for a CRS without an EPSG code.
        public var crs: String?
        public var srsID: Int64?
        /// Rows in the table now.
        public var count: Int
        /// The extent of the geometries now in the table, in the layer's CRS; nil when it has none.
        public var extent: Envelope?
        /// The extent gpkg_contents declares, nil when it declares none.
        public var declaredExtent: Envelope?
        /// Local edits not yet synced; nil when the package does not track changes.
        public var pendingEdits: PendingEdits?
        /// How it was cut at build time (from data.gpkg, else from the manifest).
        public var cut: LayerCut?
        /// Geometries checked for validity, and those GEOS found invalid or that did not decode.
        public var checkedGeometries: Int
        public var invalidGeometries: Int
    }

    /// Pending local edits of one layer, as sync would upload them.
    public struct PendingEdits: Sendable, Hashable {
        public var inserts: Int
        public var updates: Int
        public var deletes: Int
        public var total: Int { inserts + updates + deletes }
        public init(inserts: Int = 0, updates: Int = 0, deletes: Int = 0) {
            self.inserts = inserts
            self.updates = updates
            self.deletes = deletes
        }
    }

    /// The tiles of one zoom of basemap.mbtiles.
    public struct Zoom: Sendable, Hashable {
        public var zoom: Int
        public var tiles: Int
        public var minColumn: Int, maxColumn: Int
        /// TMS rows, as MBTiles stores them.
        public var minRow: Int, maxRow: Int
        /// Bytes of tile data, counting each tile (shared images once per tile that uses them).
        public var bytes: Int64
    }

    /// The package's replica and sync state, read from data.gpkg (the authority), and the
    /// registration at the source when the source can be read from here.
    public struct Replica: Sendable, Hashable {
        /// Nil for a package built with `--no-register`.
        public var id: String?
        /// The source generation the package was extracted at.
        public var extractionGeneration: Int64?
        /// The source generation the package's rows reflect now (after the last sync).
        public var syncGeneration: Int64?
        /// A sync that recorded itself in the package but has not finished.
        public var pendingSyncID: String?
        public var lastSyncID: String?
        public var lastSyncAt: String?
        /// Conflicts still listed by `pkgbuild conflicts`, and those of them without a decision.
        public var openConflicts: Int
        public var unresolvedConflicts: Int
        /// The replica's standing at the source: its registry state (`pending`, `active`) when
        /// it may sync, `resuming`, or why a sync is refused (`stale-copy`, `restored-source`,
        /// `unregistered`, `unknown-replica`); nil when the source cannot be read from here.
        public var sourceState: String?

        /// The standings in which the source refuses the package's syncs until `sync --reattach`.
        public static let strandedStates: Set<String> = ["stale-copy", "restored-source", "unregistered", "unknown-replica"]

        /// One word for the package's state: `unregistered` (built without a replica),
        /// `stranded` (the source refuses its syncs), `sync-pending`, `conflicts`, `edited` or
        /// `in-sync`.
        public func state(pendingEdits: Int) -> String {
            if id == nil { return "unregistered" }
            if let sourceState, Self.strandedStates.contains(sourceState) { return "stranded" }
            if pendingSyncID != nil { return "sync-pending" }
            if unresolvedConflicts > 0 { return "conflicts" }
            return pendingEdits > 0 ? "edited" : "in-sync"
        }
    }

    /// Something about the package that is not as it should be.
    public struct Warning: Sendable, Hashable, CustomStringConvertible {
        /// A stable name of the condition, for scripts and tests (see `PackageInspection.WarningCode`).
        public var code: WarningCode
        public var message: String
        public var description: String { message }
        public init(_ code: WarningCode, _ message: String) {
            self.code = code
            self.message = message
        }
    }

    /// The conditions `inspect` checks.
    public enum WarningCode: String, Sendable, Hashable, CaseIterable {
        /// A file the manifest lists is not there.
        case missingFile = "missing-file"
        /// data.gpkg lacks the GeoPackage application id.
        case applicationID = "application-id"
        /// A layer's gpkg_contents extent is not the extent of its geometries.
        case contentsExtent = "contents-extent"
        /// A layer's R-tree index has rows its table lacks, or lacks rows of its table.
        case rtreeCount = "rtree-count"
        /// R-tree boxes that are not their geometry's envelope.
        case rtreeEnvelope = "rtree-envelope"
        /// A layer's spatial index is missing.
        case rtreeMissing = "rtree-missing"
        /// Geometries GEOS finds invalid, or that do not decode.
        case invalidGeometry = "invalid-geometry"
        /// manifest.json and data.gpkg name different replicas.
        case manifestReplica = "manifest-replica"
        /// manifest.json and data.gpkg list different layers, or a layer with another CRS or type.
        case manifestLayers = "manifest-layers"
        /// basemap.mbtiles lacks metadata keys the package promises.
        case tileMetadata = "tile-metadata"
        /// Tiles at zooms outside the manifest's zoom range, or the metadata's range is not the tiles'.
        case tileZoomRange = "tile-zoom-range"
        /// Tiles whose square does not meet the area of interest, or that cannot exist.
        case tilesOutsideArea = "tiles-outside-area"
        /// The area takes tiles at a zoom asked for that basemap.mbtiles does not hold (the
        /// source had none there, a 404 or a zoom beyond its deepest, or they were lost since).
        case tilesAbsent = "tiles-absent"
        /// basemap.mbtiles was finished without tiles the source failed to deliver
        /// (`--skip-failed`): a build without it would fetch them.
        case tilesFailed = "tiles-failed"
        /// basemap.mbtiles cannot be read.
        case unreadableBasemap = "unreadable-basemap"
        /// A sync recorded itself but did not finish.
        case pendingSync = "pending-sync"
        /// Conflicts of the last sync are open with no decision.
        case unresolvedConflicts = "unresolved-conflicts"
        /// The source's registry lists the replica as pending, or no longer lists it.
        case replicaRegistration = "replica-registration"
    }

    public var path: String
    public var manifest: PackageManifest
    public var layers: [Layer]
    public var zooms: [Zoom]
    /// The MBTiles `format` (png, jpg, webp, pbf), nil without a basemap.
    public var tileFormat: String?
    public var replica: Replica
    /// File sizes in bytes now, by file name (SQLite's -wal and -journal files included when present).
    public var files: [String: Int64]
    public var warnings: [Warning]

    /// The CRSs of the package's layers.
    public var crs: [String] { Set(layers.compactMap(\.crs)).sorted() }

    /// Pending local edits over all layers.
    public var pendingEdits: Int { layers.reduce(0) { $0 + ($1.pendingEdits?.total ?? 0) } }

    /// The package's state in one word (see ``Replica/state(pendingEdits:)``).
    public var state: String { replica.state(pendingEdits: pendingEdits) }

    /// Whether a warning of `code` was found.
    public func has(_ code: WarningCode) -> Bool { warnings.contains { $0.code == code } }
}
