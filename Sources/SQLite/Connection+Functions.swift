import CSQLite

/// A scalar SQL function's Swift body: takes the call's arguments, returns its result, and
/// throws to make the SQL statement fail with the error's description.
public typealias SQLiteScalarFunction = ([SQLiteValue]) throws -> SQLiteValue

extension Connection {
    /// Registers (or replaces) a scalar SQL function on this connection.
    ///
    /// - Parameters:
    ///   - name: the SQL name (case-insensitive in SQL).
    ///   - argumentCount: the number of arguments, or nil for any number. Functions of the
    ///     same name with different counts are separate functions.
    ///   - deterministic: the same arguments always give the same result, so SQLite may use
    ///     the function in indexes, CHECK constraints and generated columns and factor calls out.
    ///   - innocuous: no side effects and no information leaks, so the function may run from
    ///     triggers and views of a database whose schema is not trusted (`trusted_schema=OFF`).
    ///   - body: the function; an error it throws fails the statement, with the error's
    ///     description as SQLite's message (an ``SQLiteError`` keeps its code too).
    /// - Throws: ``SQLiteError`` when SQLite refuses the registration (bad name or count,
    ///   or a statement using the function is running).
    public func createFunction(_ name: String, argumentCount: Int? = nil, deterministic: Bool = true,
                               innocuous: Bool = false, _ body: @escaping SQLiteScalarFunction) throws {
        // The arguments copied into values, then the same registration as in-place functions.
        try createInPlaceFunction(name, argumentCount: argumentCount, deterministic: deterministic,
                                  innocuous: innocuous) { arguments in
            try body((0..<arguments.count).map { arguments.value(at: $0) })
        }
    }

    /// Removes a function registered with ``createFunction(_:argumentCount:deterministic:innocuous:_:)``.
    public func removeFunction(_ name: String, argumentCount: Int? = nil) throws {
        let nArg = argumentCount.map { Int32(clamping: $0) } ?? -1
        let rc = sqlite3_create_function_v2(handle, name, nArg, SQLITE_UTF8, nil, nil, nil, nil, nil)
        guard rc == SQLITE_OK else {
            throw SQLiteError.last(handle, code: rc, sql: "function \(name)")
        }
    }
}

/// Sets the result of a call of function `name` to what `body` returns, or to the error it
/// throws: an `SQLiteError` keeps its code, any other error becomes `SQLITE_ERROR` with the
/// function's name in the message.
@inline(__always)
func setFunctionResult(of name: String, on context: OpaquePointer, _ body: () throws -> SQLiteValue) {
    do {
        setFunctionResult(try body(), on: context)
    } catch let error as SQLiteError {
        sqlite3_result_error(context, error.message, -1)
        // After result_error, which resets the code to SQLITE_ERROR.
        sqlite3_result_error_code(context, error.extendedCode)
    } catch {
        sqlite3_result_error(context, "\(name)(): \(error)", -1)
    }
}

/// Hands a Swift value to SQLite as a function's result; SQLite copies text and blobs.
func setFunctionResult(_ value: SQLiteValue, on context: OpaquePointer) {
    switch value {
    case .null:
        sqlite3_result_null(context)
    case .integer(let v):
        sqlite3_result_int64(context, v)
    case .real(let v):
        sqlite3_result_double(context, v)
    case .text(let v):
        v.withCString { sqlite3_result_text64(context, $0, UInt64(v.utf8.count), csqlite_transient(), UInt8(SQLITE_UTF8)) }
    case .textBytes(let bytes):
        // Text with its bytes as they are (a function passing a Latin-1 value through keeps it).
        bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) {
                sqlite3_result_text64(context, $0.baseAddress, UInt64($0.count), csqlite_transient(), UInt8(SQLITE_UTF8))
            }
        }
    case .blob(let bytes):
        if bytes.isEmpty {
            sqlite3_result_zeroblob(context, 0)
        } else {
            bytes.withUnsafeBytes { sqlite3_result_blob64(context, $0.baseAddress, UInt64($0.count), csqlite_transient()) }
        }
    }
}

extension SQLiteValue {
    /// Reads an argument of a function call (`sqlite3_value *`).
    init(_ value: OpaquePointer?) {
        guard let value else {
            self = .null
            return
        }
        switch StorageClass(sqliteType: sqlite3_value_type(value)) {
        case .integer:
            self = .integer(sqlite3_value_int64(value))
        case .real:
            self = .real(sqlite3_value_double(value))
        case .text:
            let text = sqlite3_value_text(value)
            let count = Int(sqlite3_value_bytes(value))
            self = text.map { .text(bytes: UnsafeBufferPointer(start: $0, count: count)) } ?? .text("")
        case .blob:
            let bytes = sqlite3_value_blob(value)
            let count = Int(sqlite3_value_bytes(value))
            self = .blob(bytes.map { [UInt8](UnsafeRawBufferPointer(start: $0, count: count)) } ?? [])
        case .null:
            self = .null
        }
    }
}

extension SQLiteValue.StorageClass {
    /// From SQLite's type code (`sqlite3_column_type`, `sqlite3_value_type`).
    init(sqliteType: Int32) {
        switch sqliteType {
        case SQLITE_INTEGER: self = .integer
        case SQLITE_FLOAT: self = .real
        case SQLITE_TEXT: self = .text
        case SQLITE_BLOB: self = .blob
        default: self = .null
        }
    }
}
