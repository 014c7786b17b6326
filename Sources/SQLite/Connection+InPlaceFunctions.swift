import CSQLite

/// The arguments of one call of a function registered with
/// ``Connection/createInPlaceFunction(_:argumentCount:deterministic:innocuous:_:)``, read where
/// SQLite holds them: a blob is lent as a buffer, never copied.
///
/// - Important: valid only during the call it was passed to; it must not be stored.
public struct SQLiteArguments {
    /// `sqlite3_value **`, owned by SQLite for the duration of the call.
    let values: UnsafeMutablePointer<OpaquePointer?>?
    /// The number of arguments.
    public let count: Int

    /// The storage class of an argument.
    public func storageClass(at index: Int) -> SQLiteValue.StorageClass {
        SQLiteValue.StorageClass(sqliteType: sqlite3_value_type(value(index)))
    }

    /// The argument as an integer (SQLite's conversion: NULL is 0, text is parsed).
    public func int64(at index: Int) -> Int64 {
        sqlite3_value_int64(value(index))
    }

    /// Calls `body` with the argument's bytes as SQLite holds them (text as UTF-8; an empty
    /// buffer for NULL or an empty blob).
    public func withBytes<R>(at index: Int, _ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        let v = value(index)
        // The pointer first, then the byte count, as SQLite's docs require.
        let start = sqlite3_value_blob(v)
        let count = Int(sqlite3_value_bytes(v))
        return try body(UnsafeRawBufferPointer(start: count > 0 ? start : nil, count: count))
    }

    /// The argument copied into a Swift value.
    public func value(at index: Int) -> SQLiteValue {
        SQLiteValue(value(index))
    }

    private func value(_ index: Int) -> OpaquePointer? {
        // A wrong index is a programming error, not bad data: SQLite's answer would be undefined.
        precondition(index >= 0 && index < count, "argument \(index) out of range 0..<\(count)")
        return values?[index]
    }
}

/// Holds a function's Swift closure; SQLite keeps a retained pointer to it as the function's
/// user data and releases it through the destructor when the function is replaced or the
/// connection closes.
final class FunctionBox {
    let name: String
    let body: (SQLiteArguments) throws -> SQLiteValue
    init(name: String, body: @escaping (SQLiteArguments) throws -> SQLiteValue) {
        self.name = name
        self.body = body
    }
}

extension Connection {
    /// Registers (or replaces) a scalar SQL function that reads its arguments in place, for
    /// functions called once per row of a bulk statement (hashing a blob, say), where copying
    /// each argument into a ``SQLiteValue`` would cost more than the function itself.
    ///
    /// Parameters and errors as ``createFunction(_:argumentCount:deterministic:innocuous:_:)``.
    /// The body may run other statements on this connection, but must not change the
    /// database the calling statement is reading.
    public func createInPlaceFunction(_ name: String, argumentCount: Int? = nil, deterministic: Bool = true,
                                      innocuous: Bool = false,
                                      _ body: @escaping (SQLiteArguments) throws -> SQLiteValue) throws {
        var flags = SQLITE_UTF8
        if deterministic { flags |= SQLITE_DETERMINISTIC }
        if innocuous { flags |= SQLITE_INNOCUOUS }
        let nArg = argumentCount.map { Int32(clamping: $0) } ?? -1

        // Ownership: +1 retain handed to SQLite, given back by the destructor below (also
        // called by SQLite when the registration itself fails).
        let box = Unmanaged.passRetained(FunctionBox(name: name, body: body)).toOpaque()
        let rc = sqlite3_create_function_v2(
            handle, name, nArg, flags, box,
            { context, argc, argv in
                guard let context, let userData = sqlite3_user_data(context) else { return }
                // SQLite holds the box for as long as the function is registered, so the call
                // can borrow it without a retain and release per row.
                Unmanaged<FunctionBox>.fromOpaque(userData)._withUnsafeGuaranteedRef { box in
                    setFunctionResult(of: box.name, on: context) {
                        try box.body(SQLiteArguments(values: argv, count: Int(argc)))
                    }
                }
            },
            nil, nil,
            { userData in
                guard let userData else { return }
                Unmanaged<FunctionBox>.fromOpaque(userData).release()
            })
        guard rc == SQLITE_OK else {
            throw SQLiteError.last(handle, code: rc, sql: "function \(name)")
        }
    }
}
