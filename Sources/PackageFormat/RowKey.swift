import Geodatabase

/// A row's identity across the databases: its table (without A-Z letter case, as SQLite
/// compares names) and global id.
public struct RowKey: Hashable, Sendable {
    public var table: SQLName
    public var globalID: String
    public init(_ table: String, _ globalID: String) {
        self.table = SQLName(table)
        self.globalID = globalID
    }
}
