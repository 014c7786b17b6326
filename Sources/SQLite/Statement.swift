import CSQLite

/// A prepared statement (`sqlite3_stmt *`), finalized when the value is released.
///
/// Parameters are numbered from 1, as in SQLite (`?1`, or the order of `?`s); columns are
/// numbered from 0. Column getters read the row the last ``step()`` stopped on.
///
/// - Important: Like its ``Connection``, which it keeps alive, a statement has one owner at a time.
public final class Statement {
    /// The connection the statement belongs to; held so it outlives the statement.
    public let connection: Connection
    /// The SQL text the statement was prepared from.
    public let sql: String
    /// The C handle; owned by this object and finalized in `deinit`.
    let handle: OpaquePointer

    init(connection: Connection, sql: String) throws {
        var stmt: OpaquePointer?
        var hasTrailingStatement = false
        let rc: Int32 = sql.withCString { start in
            var tail: UnsafePointer<CChar>?
            let rc = sqlite3_prepare_v2(connection.handle, start, -1, &stmt, &tail)
            // Whatever follows must compile to nothing (whitespace, comments): one statement
            // only. A tail that fails to compile (syntax, authorizer) is something too.
            if rc == SQLITE_OK, let tail, tail.pointee != 0 {
                var trailing: OpaquePointer?
                let trailingRC = sqlite3_prepare_v2(connection.handle, tail, -1, &trailing, nil)
                hasTrailingStatement = trailingRC != SQLITE_OK || trailing != nil
                sqlite3_finalize(trailing)
            }
            return rc
        }
        guard rc == SQLITE_OK else {
            throw connection.failure(rc, sql: sql)
        }
        guard let stmt else {
            throw SQLiteError.misuse("no statement to prepare", sql: sql)
        }
        if hasTrailingStatement {
            sqlite3_finalize(stmt)
            throw SQLiteError.misuse("more than one statement; use execute(_:) for scripts", sql: sql)
        }
        self.connection = connection
        self.sql = sql
        self.handle = stmt
    }

    deinit {
        sqlite3_finalize(handle)
    }

    /// True when the statement cannot change the database (`sqlite3_stmt_readonly`).
    /// Note that BEGIN, COMMIT and SAVEPOINT also count as read-only.
    public var isReadOnly: Bool { sqlite3_stmt_readonly(handle) != 0 }

    /// The number of parameters (the largest index).
    public var parameterCount: Int { Int(sqlite3_bind_parameter_count(handle)) }

    /// The index of a named parameter, written with its prefix (`":name"`, `"@name"`, `"$name"`).
    public func parameterIndex(named name: String) -> Int? {
        let index = sqlite3_bind_parameter_index(handle, name)
        return index == 0 ? nil : Int(index)
    }

    // MARK: Binding

    /// Binds a value to the parameter at `index` (from 1).
    public func bind(_ value: SQLiteValue, at index: Int) throws {
        guard index >= 1 && index <= parameterCount else {
            throw SQLiteError.misuse("parameter index \(index) out of range 1...\(parameterCount)", sql: sql)
        }
        let i = Int32(index)
        let rc: Int32
        switch value {
        case .null:
            rc = sqlite3_bind_null(handle, i)
        case .integer(let v):
            rc = sqlite3_bind_int64(handle, i, v)
        case .real(let v):
            rc = sqlite3_bind_double(handle, i, v)
        case .text(let v):
            // TRANSIENT: SQLite copies the bytes, since Swift's buffer lives only for this call.
            rc = v.withCString { sqlite3_bind_text64(handle, i, $0, UInt64(v.utf8.count), csqlite_transient(), UInt8(SQLITE_UTF8)) }
        case .textBytes(let bytes):
            // Text, never a blob, with the byte count: SQLite stores the bytes as they are.
            rc = bytes.withUnsafeBufferPointer { buffer in
                buffer.withMemoryRebound(to: CChar.self) {
                    sqlite3_bind_text64(handle, i, $0.baseAddress, UInt64($0.count), csqlite_transient(), UInt8(SQLITE_UTF8))
                }
            }
        case .blob(let bytes):
            return try bytes.withUnsafeBytes { try bind(bytes: $0, at: index) }
        }
        guard rc == SQLITE_OK else { throw connection.failure(rc, sql: sql) }
    }

    /// Binds bytes as a blob without first making a Swift array of them (SQLite copies them
    /// once); an empty buffer binds an empty blob.
    public func bind(bytes: UnsafeRawBufferPointer, at index: Int) throws {
        guard index >= 1 && index <= parameterCount else {
            throw SQLiteError.misuse("parameter index \(index) out of range 1...\(parameterCount)", sql: sql)
        }
        let rc: Int32
        if let start = bytes.baseAddress, !bytes.isEmpty {
            rc = sqlite3_bind_blob64(handle, Int32(index), start, UInt64(bytes.count), csqlite_transient())
        } else {
            // A NULL pointer would bind NULL, not an empty blob.
            rc = sqlite3_bind_zeroblob(handle, Int32(index), 0)
        }
        guard rc == SQLITE_OK else { throw connection.failure(rc, sql: sql) }
    }

    /// Binds `bytes` as a blob that SQLite reads where it lies, without a copy, for `body`
    /// (which steps the statement) only: the statement is then reset and NULL bound in
    /// their place, so it never keeps a pointer to memory the caller may since have freed.
    /// For large blobs written once, where the copy is a cost per byte. An empty buffer
    /// binds an empty blob.
    public func withBlob<R>(_ bytes: UnsafeRawBufferPointer, boundAt index: Int, _ body: () throws -> R) throws -> R {
        if let start = bytes.baseAddress, !bytes.isEmpty {
            guard index >= 1 && index <= parameterCount else {
                throw SQLiteError.misuse("parameter index \(index) out of range 1...\(parameterCount)", sql: sql)
            }
            // A nil destructor is SQLITE_STATIC: the bytes stay the caller's.
            let rc = sqlite3_bind_blob64(handle, Int32(index), start, UInt64(bytes.count), nil)
            guard rc == SQLITE_OK else { throw connection.failure(rc, sql: sql) }
        } else {
            try bind(bytes: bytes, at: index)
        }
        defer {
            // SQLite takes a new binding only once the statement is reset.
            reset()
            sqlite3_bind_null(handle, Int32(index))
        }
        return try body()
    }

    /// Binds a value to a named parameter, written with its prefix (`":name"`).
    public func bind(_ value: SQLiteValue, named name: String) throws {
        guard let index = parameterIndex(named: name) else {
            throw SQLiteError.misuse("no parameter named \(name)", sql: sql)
        }
        try bind(value, at: index)
    }

    /// Binds values to parameters 1, 2, ... in order; their number must match.
    public func bind(_ values: [SQLiteValue]) throws {
        guard values.count == parameterCount else {
            throw SQLiteError.misuse("\(values.count) arguments for \(parameterCount) parameters", sql: sql)
        }
        for (offset, value) in values.enumerated() { try bind(value, at: offset + 1) }
    }

    /// Binds values to named parameters (`[":name": "Denali"]`).
    public func bind(_ values: [String: SQLiteValue]) throws {
        for (name, value) in values { try bind(value, named: name) }
    }

    /// Sets every parameter back to NULL.
    public func clearBindings() {
        sqlite3_clear_bindings(handle)
    }

    // MARK: Running

    /// Runs the statement to its next row.
    /// - Returns: true when a row is ready to read, false when the statement is done.
    /// - Throws: ``SQLiteError`` with this statement's SQL.
    @discardableResult
    public func step() throws -> Bool {
        let rc = sqlite3_step(handle)
        switch rc {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default:
            // Resetting here lets the statement be retried (after SQLITE_BUSY) without a reset call.
            sqlite3_reset(handle)
            throw connection.failure(rc, sql: sql)
        }
    }

    /// Rewinds the statement so it can run again; bindings are kept.
    public func reset() {
        // The return value repeats the last step's error, already thrown by step().
        sqlite3_reset(handle)
    }

    /// Steps to the next row and returns all its values, or nil when done. A pull-style
    /// cursor: only one row exists at a time.
    public func nextRow() throws -> [SQLiteValue]? {
        guard try step() else { return nil }
        return values
    }

    /// Steps through every remaining row, calling `body` with the statement positioned on it.
    public func forEachRow(_ body: (Statement) throws -> Void) throws {
        while try step() { try body(self) }
    }

    // MARK: Columns

    /// The number of columns in a result row.
    public var columnCount: Int { Int(sqlite3_column_count(handle)) }

    /// The name of a column (its `AS` alias when there is one).
    public func columnName(at index: Int) -> String {
        checkColumn(index)
        return sqlite3_column_name(handle, Int32(index)).map { String(cString: $0) } ?? ""
    }

    /// The names of all columns, in order.
    public var columnNames: [String] { (0..<columnCount).map(columnName(at:)) }

    /// The type a column was declared with in its table (`"INTEGER"`, `"MULTIPOLYGON"`), or
    /// nil for an expression.
    public func declaredType(at index: Int) -> String? {
        checkColumn(index)
        return sqlite3_column_decltype(handle, Int32(index)).map { String(cString: $0) }
    }

    /// The storage class of a column's value in the current row.
    public func columnType(at index: Int) -> SQLiteValue.StorageClass {
        checkColumn(index)
        return SQLiteValue.StorageClass(sqliteType: sqlite3_column_type(handle, Int32(index)))
    }

    public func isNull(at index: Int) -> Bool { columnType(at: index) == .null }

    /// The column as an integer (SQLite's conversion: NULL is 0, text is parsed).
    public func int64(at index: Int) -> Int64 {
        checkColumn(index)
        return sqlite3_column_int64(handle, Int32(index))
    }

    /// The column as a Double (SQLite's conversion: NULL is 0.0).
    public func double(at index: Int) -> Double {
        checkColumn(index)
        return sqlite3_column_double(handle, Int32(index))
    }

    /// The column as text, or nil when it is NULL. Bytes that are not UTF-8 become U+FFFD:
    /// right for names and messages, never for data (``value(at:)`` keeps the bytes).
    public func string(at index: Int) -> String? {
        checkColumn(index)
        let i = Int32(index)
        guard let text = sqlite3_column_text(handle, i) else { return nil }
        // The byte count is read after the text, as SQLite's docs require.
        let count = Int(sqlite3_column_bytes(handle, i))
        return String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self)
    }

    /// The column as bytes, or nil when it is NULL (an empty blob gives `[]`).
    public func blob(at index: Int) -> [UInt8]? {
        checkColumn(index)
        let i = Int32(index)
        if sqlite3_column_type(handle, i) == SQLITE_NULL { return nil }
        guard let bytes = sqlite3_column_blob(handle, i) else { return [] }
        let count = Int(sqlite3_column_bytes(handle, i))
        return [UInt8](UnsafeRawBufferPointer(start: bytes, count: count))
    }

    /// Calls `body` with the column's bytes where SQLite holds them, without copying (text
    /// as UTF-8; an empty buffer for NULL or an empty blob). The buffer is valid only
    /// during the call.
    public func withBytes<R>(at index: Int, _ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        checkColumn(index)
        let i = Int32(index)
        // The pointer first, then the byte count, as SQLite's docs require.
        let start = sqlite3_column_blob(handle, i)
        let count = Int(sqlite3_column_bytes(handle, i))
        return try body(UnsafeRawBufferPointer(start: count > 0 ? start : nil, count: count))
    }

    /// The column's value in its own storage class.
    public func value(at index: Int) -> SQLiteValue {
        switch columnType(at: index) {
        case .null: .null
        case .integer: .integer(int64(at: index))
        case .real: .real(double(at: index))
        case .text: text(at: index)
        case .blob: .blob(blob(at: index) ?? [])
        }
    }

    /// A TEXT column's value with its bytes exactly as stored (``SQLiteValue/text(bytes:)``).
    private func text(at index: Int) -> SQLiteValue {
        let i = Int32(index)
        guard let text = sqlite3_column_text(handle, i) else { return .text("") }
        // The byte count is read after the text, as SQLite's docs require.
        let count = Int(sqlite3_column_bytes(handle, i))
        return .text(bytes: UnsafeBufferPointer(start: text, count: count))
    }

    /// All values of the current row.
    public var values: [SQLiteValue] { (0..<columnCount).map(value(at:)) }

    private func checkColumn(_ index: Int) {
        // A wrong column index is a programming error, not bad data; SQLite's answer would be undefined.
        precondition(index >= 0 && index < columnCount, "column \(index) out of range 0..<\(columnCount) in \(sql)")
    }
}
