import CLibPQ

/// How the server sends a query's values (libpq's resultFormat).
public enum ResultFormat: Int32, Sendable, Hashable {
    /// Each value as its text output (a bytea as `\x` hex, a geometry as hex EWKB).
    case text = 0
    /// Each value in its type's binary send format (a bytea or a geometry as raw bytes): half
    /// the bytes for binary columns, and no hex to decode.
    case binary = 1
}

extension Connection {
    /// Runs SQL without parameters; several statements separated by `;` run in turn (`PQexec`),
    /// in one implicit transaction unless the text opens its own.
    /// - Throws: ``PostgreSQLError`` for the first statement the server refused.
    public func execute(_ sql: String) throws {
        _ = try check(PQexec(handle, sql), sql: sql)
    }

    /// Runs one statement with `$1`, `$2`... bound to `parameters`.
    /// - Returns: the rows it inserted, updated, deleted or returned (`PQcmdTuples`).
    @discardableResult
    public func execute(_ sql: String, _ parameters: [Parameter]) throws -> Int {
        try run(sql, parameters).affectedRows
    }

    /// The rows of one statement, all held in memory: for results known to be small. Large
    /// ones go through ``forEachRow(_:_:results:_:)``, which holds one row at a time.
    public func query(_ sql: String, _ parameters: [Parameter] = [], results format: ResultFormat = .text) throws -> [Row] {
        let result = try run(sql, parameters, format)
        return (0..<result.rowCount).map { Row(result, $0) }
    }

    /// The first row of one statement, or nil when it returns none.
    public func queryFirst(_ sql: String, _ parameters: [Parameter] = [], results format: ResultFormat = .text) throws -> Row? {
        let result = try run(sql, parameters, format)
        return result.rowCount > 0 ? Row(result, 0) : nil
    }

    func run(_ sql: String, _ parameters: [Parameter], _ format: ResultFormat = .text) throws -> Result {
        let arrays = try ParameterArrays(parameters, sql: sql)
        let result = arrays.withValues { values in
            // A NULL return means out of memory or a lost connection.
            PQexecParams(handle, sql, arrays.count, arrays.types, values, arrays.lengths, arrays.formats, format.rawValue)
        }
        return try check(result, sql: sql)
    }

    /// Owns `result` and returns it when the command succeeded; the server's refusal otherwise.
    func check(_ result: OpaquePointer?, sql: String) throws -> Result {
        guard let result else { throw failure(nil, sql: sql) }
        let owned = Result(result)
        switch PQresultStatus(result) {
        case PGRES_COMMAND_OK, PGRES_TUPLES_OK, PGRES_SINGLE_TUPLE, PGRES_EMPTY_QUERY:
            return owned
        case PGRES_COPY_IN, PGRES_COPY_OUT, PGRES_COPY_BOTH:
            // The connection waits for COPY data this wrapper does not send: end it there.
            _ = PQputCopyEnd(handle, "COPY is not supported by this connection")
            while let next = PQgetResult(handle) { PQclear(next) }
            throw PostgreSQLError(.invalidParameter, "COPY is not supported here - while executing \"\(SQLText.excerpt(sql))\"")
        default:
            throw failure(result, sql: sql)
        }
    }

    /// The error a failed command reports: the server's SQLSTATE and fields when it answered,
    /// a lost connection when it did not.
    func failure(_ result: OpaquePointer?, sql: String) -> PostgreSQLError {
        let statement = " - while executing \"\(SQLText.excerpt(sql))\""
        guard let result, let state = field(result, clibpq_diag_sqlstate) else {
            let words = lastMessage
            // Without a SQLSTATE the words are libpq's: the connection broke, or libpq refused
            // the call itself (too many parameters...).
            let kind: PostgreSQLErrorKind = PQstatus(handle) == CONNECTION_BAD ? .connectionLost : .invalidParameter
            return PostgreSQLError(kind, "PostgreSQL connection (\(info)) failed: \(words.isEmpty ? "no result" : words)\(statement)")
        }
        let diagnostics = ServerDiagnostics(
            sqlState: state, schema: field(result, clibpq_diag_schema_name), table: field(result, clibpq_diag_table_name),
            column: field(result, clibpq_diag_column_name), constraint: field(result, clibpq_diag_constraint_name),
            detail: field(result, clibpq_diag_message_detail), hint: field(result, clibpq_diag_message_hint))
        var words = field(result, clibpq_diag_message_primary) ?? "an error without a message"
        if let detail = diagnostics.detail { words += " (\(detail))" }
        return PostgreSQLError(.server(diagnostics), "PostgreSQL error \(state): \(words)\(statement)")
    }

    private func field(_ result: OpaquePointer, _ code: Int32) -> String? {
        PQresultErrorField(result, code).map { String(cString: $0) }
    }
}
