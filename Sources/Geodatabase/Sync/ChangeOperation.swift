/// The kind of a recorded change, as the change tables spell it.
import SQLite

public enum ChangeOperation: String, Sendable, Hashable, CaseIterable {
    case insert, update, delete

    /// The operation a change table stores.
    /// - Parameters:
    ///   - log: the change table that holds it (`pkgbuild_edits`, `pkgbuild_changes`).
    ///   - table: the table of the changed row, as the log names it.
    ///   - globalID: the changed row's global id.
    /// - Throws: ``GeodatabaseError`` (`invalidContent`) naming the log, the row and the value
    ///   for anything else: a change whose kind is unknown must not be taken for an update.
    public init(parsing value: SQLiteValue, in log: String, table: String, globalID: String) throws {
        guard let text = value.stringValue, let operation = ChangeOperation(rawValue: text) else {
            throw GeodatabaseError(.invalidContent, """
                \(log): the change of '\(table)' row \(globalID) has the unknown operation \(value.description) \
                (a change is an insert, an update or a delete): the change log is damaged
                """)
        }
        self = operation
    }
}

extension ChangeOperation {
    /// True in SQL for a log row whose `operation` is none of the known kinds (NULL included):
    /// another writer can bypass the log's CHECK, and a sync looks for such rows first.
    static let unknownOperationSQL = "NOT coalesce(operation IN ("
        + allCases.map { SQL.literal($0.rawValue) }.joined(separator: ", ") + "), 0)"

    /// Throws for the first of `rows` (table name, global id, operation) of `log` whose
    /// operation is unknown, as ``init(parsing:in:table:globalID:)`` words it.
    static func requireKnown(_ rows: [[SQLiteValue]], in log: String) throws {
        for row in rows {
            _ = try ChangeOperation(parsing: row[2], in: log, table: row[0].stringValue ?? "", globalID: row[1].stringValue ?? "")
        }
    }
}
