/// The create side of a source driver: everything `pkgbuild create` and `estimate` ask of the
/// database a package is cut from, in the domain's terms. The extractor plans and cuts (which
/// layers, the area in each layer's CRS, the exact geometry test, the clip, related rows one
/// hop along every relationship) and writes the package; a driver holds its database's SQL,
/// its spatial index and how it renders a `--where` filter.
import Geodatabase
import Geometry

/// A source a package is cut from, open for one `create` or `estimate`.
///
/// - Important: One owner at a time (the planner, then the one reading worker it hands the
///   source to); not safe for concurrent use.
public protocol FeatureSource: AnyObject {
    /// How messages name the source: its address without a secret in it.
    var displayName: String { get }
    /// What the manifest records: the backend (`geopackage`) and the source's canonical
    /// address (an absolute path for a file).
    var kind: String { get }
    var location: String { get }

    // MARK: Schema

    /// The feature and attribute tables, in the source's order (mapping tables of
    /// relationships among them: the caller leaves those out).
    func layers() throws -> [FeatureLayer]
    /// The relationships between its tables (key-based and mapping-table ones).
    func relationships() throws -> [Relationship]
    /// The definition of an srs id the layers use; nil when the source does not define it.
    func spatialReferenceSystem(id: Int64) throws -> SpatialReferenceInfo?
    /// Whether the source records its changes, so that a package can be registered as a replica.
    func isSyncEnabled() throws -> Bool
    /// True when this user cannot write the source (a read-only file), so no replica can be
    /// registered there.
    var isReadOnly: Bool { get }

    // MARK: Reading

    /// Runs `body` in one read snapshot: every read inside sees one state of the source.
    func withReadSnapshot<T>(_ body: () throws -> T) throws -> T
    /// The position of the source's change log (in the snapshot), nil for a source without
    /// change tracking: where a package's downloads start (its opaque cursor, which the
    /// package keeps for its first sync, and the generation the registry records).
    func changePosition() throws -> SourcePosition?
    /// Calls `body` with every row the query selects, as it reads them (nothing collected);
    /// `body` asks nothing of the source meanwhile, so one statement or cursor is open at a time.
    /// - Throws: the driver's error for a query it cannot run (a filter it cannot render).
    func forEachRow(_ query: RowQuery, _ body: (SourceRow) throws -> Void) throws
    /// The other end's key values of the mapping rows whose `fromColumn` holds one of `keys`.
    func keys(through hop: MappingHop, from keys: [SourceValue]) throws -> [SourceValue]
    /// The metadata of the package's `tables`, in the order to write it; `keptKeys` gives the
    /// primary keys the package holds of a table (a mapping table's links are copied only
    /// when both their ends are).
    func forEachMetadataItem(tables: [String], keptKeys: (String) -> Set<Int64>,
                             _ body: (PackageMetadataItem) throws -> Void) throws
}
