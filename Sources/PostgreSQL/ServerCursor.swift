/// A query's rows read through a server-side cursor (`DECLARE … CURSOR`, `FETCH n`), a batch at
/// a time: memory holds one batch however many rows there are, and between two rows the
/// connection is free for other statements (single-row mode keeps it busy until the last
/// row, so a caller that asks the database for more while it reads needs this).

/// An open cursor of the connection's transaction, closed by ``close()`` or with the
/// transaction. Opened outside a transaction, it reads in a REPEATABLE READ READ ONLY one of
/// its own, committed after the last row, by ``close()`` or when the cursor is released.
public final class ServerCursor {
    private let connection: Connection
    private let name: String
    private let batchSize: Int
    private var batch: [Row] = []
    private var index = 0
    private var exhausted = false
    /// The cursor opened the transaction it reads in.
    private var ownsTransaction = false
    private var closed = false

    /// Declares the cursor for `sql` (one SELECT).
    /// - Throws: ``PostgreSQLError``.
    public init(_ connection: Connection, _ sql: String, _ parameters: [Parameter] = [], batchSize: Int = 1_000) throws {
        connection.cursorCount += 1
        name = "pkgbuild_cursor_\(connection.cursorCount)"
        self.connection = connection
        self.batchSize = batchSize
        if !connection.isInTransaction {
            try connection.execute("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
            ownsTransaction = true
        }
        do {
            try connection.execute("DECLARE \(name) NO SCROLL CURSOR FOR \(sql)", parameters)
        } catch {
            if ownsTransaction { try? connection.execute("ROLLBACK") }
            throw error
        }
    }

    deinit {
        if ownsTransaction && connection.isInTransaction { try? connection.execute("COMMIT") }
    }

    /// The next row, nil after the last.
    public func next() throws -> Row? {
        if index == batch.count {
            guard !exhausted else { return nil }
            batch = try connection.query("FETCH \(batchSize) FROM \(name)")
            index = 0
            exhausted = batch.count < batchSize
            if batch.isEmpty {
                try close()
                return nil
            }
        }
        defer { index += 1 }
        return batch[index]
    }

    /// Closes the cursor (the transaction's end closes it too).
    public func close() throws {
        batch = []
        guard !closed else { return }
        (exhausted, closed) = (true, true)
        guard connection.isInTransaction else { return }
        if ownsTransaction {
            ownsTransaction = false
            try connection.execute("COMMIT")
        } else {
            try connection.execute("CLOSE \(name)")
        }
    }
}

extension Connection {
    /// Hands every row of `sql` to `body` through a ``ServerCursor``: `body` may run other
    /// statements on this connection meanwhile.
    /// - Returns: the number of rows.
    @discardableResult
    public func forEachRow(throughCursor sql: String, _ parameters: [Parameter] = [], batchSize: Int = 1_000,
                           _ body: (Row) throws -> Void) throws -> Int {
        let cursor = try ServerCursor(self, sql, parameters, batchSize: batchSize)
        var count = 0
        while let row = try cursor.next() {
            try body(row)
            count += 1
        }
        try cursor.close()
        return count
    }
}
