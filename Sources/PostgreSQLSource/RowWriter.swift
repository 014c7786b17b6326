/// Writes of an upload, each refused alone without losing the transaction, and without a
/// savepoint per row: PostgreSQL aborts a whole transaction on one failed statement, and a
/// savepoint per row costs a subtransaction each (past 64 in one transaction, every snapshot
/// on the server slows down). So writes go in batches under one savepoint; when a row is
/// refused, the batch is rolled back to its savepoint and its earlier writes, which succeeded
/// from that same state, are replayed, then the refusal is reported. Batches double in size
/// (128 up to 8,192 writes), so an upload of a million rows takes about 130 subtransactions.
import PostgreSQL
import SourceDrivers

/// One statement of an upload, kept to be replayed.
struct PreparedWrite {
    var sql: String
    var parameters: [Parameter]
}

/// The writer of one write transaction.
final class RowWriter {
    private let connection: Connection
    /// The writes since the open batch savepoint.
    private var batch: [PreparedWrite] = []
    private var isBatchOpen = false
    private var limit = 128
    static let largestBatch = 8_192
    private static let savepoint = "pkgbuild_batch"

    init(connection: Connection) {
        self.connection = connection
    }

    /// Runs one write.
    /// - Returns: the rows it changed, or the refusal (the transaction stays usable).
    /// - Throws: any error that is not a refusal of this row (a serialization failure, a lost
    ///   connection), or a replay that failed: the transaction is then lost and sync retries
    ///   or reports it.
    func apply(_ write: PreparedWrite, refusal: (PostgreSQLError) throws -> SourceRefusal) throws -> Result<Int, SourceRefusal> {
        if !isBatchOpen {
            try connection.execute("SAVEPOINT \(Self.savepoint)")
            isBatchOpen = true
        }
        do {
            let changed = try connection.execute(write.sql, write.parameters)
            batch.append(write)
            if batch.count >= limit { try finish() }
            return .success(changed)
        } catch let error as PostgreSQLError where Self.refusesTheRowOnly(error) {
            try connection.execute("ROLLBACK TO SAVEPOINT \(Self.savepoint)")
            for earlier in batch { try connection.execute(earlier.sql, earlier.parameters) }
            return .failure(try refusal(error))
        }
    }

    /// Ends the open batch (its savepoint released).
    func finish() throws {
        guard isBatchOpen else { return }
        try connection.execute("RELEASE SAVEPOINT \(Self.savepoint)")
        isBatchOpen = false
        batch = []
        limit = min(limit * 2, Self.largestBatch)
    }

    /// A constraint (class 23), a value the column cannot hold (class 22: text not valid in
    /// the database's encoding, a number out of range, a malformed uuid or date), or a trigger
    /// of the office's refusing the row (P0001).
    static func refusesTheRowOnly(_ error: PostgreSQLError) -> Bool {
        guard let state = error.sqlState else { return false }
        return state.hasPrefix("23") || state.hasPrefix("22") || state == "P0001"
    }
}
