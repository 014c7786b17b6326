import CLibPQ

extension Connection {
    /// Runs one statement and hands its rows to `body` one at a time, as they arrive (libpq's
    /// single-row mode): memory holds one row, however many the statement returns.
    ///
    /// A throw from `body` cancels the statement on the server and is rethrown once libpq has
    /// finished with it; inside a transaction, the transaction has then failed (roll it back).
    /// - Returns: the number of rows handed to `body`.
    @discardableResult
    public func forEachRow(_ sql: String, _ parameters: [Parameter] = [], results format: ResultFormat = .text,
                           _ body: (Row) throws -> Void) throws -> Int {
        try send(sql, parameters, format)
        var count = 0
        var failure: (any Error)?
        // PQgetResult returns one result per row, then the end (TUPLES_OK, no rows), then NULL.
        while let next = PQgetResult(handle) {
            let result = Result(next)
            guard failure == nil else { continue }  // draining after an error
            switch PQresultStatus(next) {
            case PGRES_SINGLE_TUPLE:
                do {
                    try body(Row(result, 0))
                    count += 1
                } catch {
                    failure = error
                    cancel()
                }
            case PGRES_TUPLES_OK, PGRES_COMMAND_OK:
                break
            default:
                failure = self.failure(next, sql: sql)
            }
        }
        if let failure { throw failure }
        return count
    }

    /// Sends the statement without waiting for its result, in single-row mode.
    private func send(_ sql: String, _ parameters: [Parameter], _ format: ResultFormat) throws {
        let arrays = try ParameterArrays(parameters, sql: sql)
        let sent = arrays.withValues { values in
            // Returns 1 when queued, 0 otherwise (another query still running, connection lost).
            PQsendQueryParams(handle, sql, arrays.count, arrays.types, values, arrays.lengths, arrays.formats, format.rawValue)
        }
        guard sent == 1 else { throw failure(nil, sql: sql) }
        // Must follow the send at once; 0 when it cannot (a multi-statement text is refused by
        // PQsendQueryParams already, so this only fails with the connection).
        guard PQsetSingleRowMode(handle) == 1 else {
            while let next = PQgetResult(handle) { PQclear(next) }
            throw failure(nil, sql: sql)
        }
    }

    /// Asks the server to stop the running statement (`PQcancel`, through a separate
    /// connection). Nothing to do when it fails: the rows are then drained instead.
    private func cancel() {
        // PQgetCancel returns NULL for a bad connection; the object is freed with PQfreeCancel.
        guard let request = PQgetCancel(handle) else { return }
        defer { PQfreeCancel(request) }
        var message = [CChar](repeating: 0, count: 256)
        _ = PQcancel(request, &message, Int32(message.count))
    }
}
