/// How sync addresses the rows of one table in any database: by global id, with the columns
/// it reads or writes. Neutral (no SQL in it), so it crosses the seam to a source driver.

/// The columns sync reads or writes of one table, as it addresses rows at the source.
public struct TableShape: Sendable, Hashable {
    public var name: String
    public var keyColumn: String
    public var globalIDColumn: String
    public var columns: [String]
    public var geometryColumn: String?

    public init(name: String, keyColumn: String, globalIDColumn: String, columns: [String], geometryColumn: String? = nil) {
        (self.name, self.keyColumn, self.globalIDColumn, self.columns, self.geometryColumn) = (name, keyColumn, globalIDColumn, columns, geometryColumn)
    }

    /// By name and column count only (equal shapes still hash alike): row stores look their
    /// statements up by shape for every row, and hashing each column name was most of that.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(name)
        hasher.combine(columns.count)
    }

    /// The same table with only `columns`.
    public func with(columns: [String]) -> TableShape {
        TableShape(name: name, keyColumn: keyColumn, globalIDColumn: globalIDColumn, columns: columns,
                   geometryColumn: columns.contains(where: { $0 == geometryColumn }) ? geometryColumn : nil)
    }
}
