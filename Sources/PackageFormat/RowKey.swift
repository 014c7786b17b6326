/// A row's identity across the databases: its table (lower-cased) and global id.
public struct RowKey: Hashable, Sendable {
    public var table: String
    public var globalID: String
    public init(_ table: String, _ globalID: String) {
        self.table = table.lowercased()
        self.globalID = globalID
    }
}
