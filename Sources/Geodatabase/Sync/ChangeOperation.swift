/// The kind of a recorded change, as the change tables spell it.
import SQLite

public enum ChangeOperation: String, Sendable, Hashable, CaseIterable {
    case insert, update, delete

    /// The operation a change table stores.
    /// - Throws: ``GeodatabaseError`` (`invalidContent`) for anything else: a change whose kind
    ///   is unknown must not be taken for an update.
    public init(parsing value: SQLiteValue) throws {
        guard let text = value.stringValue, let operation = ChangeOperation(rawValue: text) else {
            throw GeodatabaseError(.invalidContent, "a change is recorded with the unknown operation \(value.description)")
        }
        self = operation
    }
}
