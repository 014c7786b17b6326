/// What sync needs to know about one synced table, the same in the package and at the source
/// except for the layer's CRS and cut.
import Geodatabase
import Geometry
import PackageFormat

/// A synced table: its columns and how the package's copy of it was cut.
public struct SyncTable: Sendable, Hashable {
    public var name: String { didSet { sqlName = SQLName(name) } }
    /// The package's INTEGER PRIMARY KEY (fids are local to each database; never synced).
    public var keyColumn: String { didSet { valueColumns = Self.valueColumns(of: self) } }
    /// The global id column that matches rows across databases.
    public var globalIDColumn: String { didSet { valueColumns = Self.valueColumns(of: self) } }
    /// Every column, in table order (key and global id included).
    public var columns: [String] { didSet { valueColumns = Self.valueColumns(of: self) } }
    /// The geometry column of a feature table.
    public var geometryColumn: String? { didSet { geometryName = geometryColumn.map { SQLName($0) } } }
    /// The geometry column's srs_id in the package and at the source.
    public var packageSRSID: Int64?
    public var sourceSRSID: Int64?
    /// How `create` cut the layer (from the manifest); a plain spatial cut when unknown.
    public var cut: LayerCut
    /// The parse of `cut.filter` in the `--where` grammar, set with the filter the source
    /// registered; nil for a filter from before the grammar, run as its text once SQLite's
    /// authorizer has let it through (see ``RegisteredScope``).
    public var filterExpression: FilterExpression?
    /// The geometry column's declared type and Z/M rules in the package and at the source:
    /// what a download, an upload may write there.
    public var packageGeometryType: DeclaredGeometryType?
    public var sourceGeometryType: DeclaredGeometryType?

    // Derived from the names above and kept with them: sync asks for them for every row.
    /// The table's name as SQLite compares it (without A-Z letter case).
    public private(set) var sqlName: SQLName
    /// The columns whose values sync: all but the key and the global id.
    public private(set) var valueColumns: [String] = []
    private var geometryName: SQLName?

    public init(name: String, keyColumn: String, globalIDColumn: String, columns: [String],
                geometryColumn: String? = nil, packageSRSID: Int64? = nil, sourceSRSID: Int64? = nil,
                cut: LayerCut = LayerCut(spatial: true), packageGeometryType: DeclaredGeometryType? = nil,
                sourceGeometryType: DeclaredGeometryType? = nil) {
        self.name = name
        self.keyColumn = keyColumn
        self.globalIDColumn = globalIDColumn
        self.columns = columns
        self.geometryColumn = geometryColumn
        self.packageSRSID = packageSRSID
        self.sourceSRSID = sourceSRSID
        self.cut = cut
        self.packageGeometryType = packageGeometryType
        self.sourceGeometryType = sourceGeometryType
        sqlName = SQLName(name)
        geometryName = geometryColumn.map { SQLName($0) }
        valueColumns = Self.valueColumns(of: self)
    }

    private static func valueColumns(of table: SyncTable) -> [String] {
        table.columns.filter { $0 != table.keyColumn && $0 != table.globalIDColumn }
    }

    /// No local edit of a schema-only layer can go up; of a clipped layer (its geometries are
    /// not the source's) only attribute edits can (see `Reconciler`).
    public var isDownloadOnly: Bool { cut.clipped || cut.schemaOnly }

    /// True for the geometry column.
    public func isGeometry(_ column: String) -> Bool {
        geometryName?.isName(column) ?? false
    }
}
