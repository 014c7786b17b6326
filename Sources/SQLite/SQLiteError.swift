import CSQLite

/// The SQLite module's one error type: SQLite's result codes and message, and what was being
/// done (the SQL, or the path being opened) so a person can act on it.
///
/// Its description reads like GRDB's:
/// `SQLite error 19: NOT NULL constraint failed: parks.name - while executing "INSERT ..."`.
public struct SQLiteError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The extended result code (`SQLITE_CONSTRAINT_NOTNULL` = 1299, ...). Its low byte is
    /// the primary ``code``.
    public var extendedCode: Int32
    /// SQLite's message (`sqlite3_errmsg`), or the wrapper's when the wrapper refused the call.
    public var message: String
    /// The statement that failed, when a statement did.
    public var sql: String?
    /// The database file being opened, when opening failed.
    public var path: String?

    public init(extendedCode: Int32, message: String, sql: String? = nil, path: String? = nil) {
        self.extendedCode = extendedCode
        self.message = message
        self.sql = sql
        self.path = path
    }

    /// The primary result code (`SQLITE_CONSTRAINT` = 19, `SQLITE_BUSY` = 5, ...).
    public var code: Int32 { extendedCode & 0xFF }

    /// A UNIQUE, NOT NULL, CHECK, FOREIGN KEY or PRIMARY KEY constraint refused the change,
    /// or a trigger called `RAISE(ABORT, ...)`.
    public var isConstraintViolation: Bool { code == SQLITE_CONSTRAINT }

    /// A UNIQUE index or the primary key already holds the value the statement writes: another
    /// row's change may free it.
    public var isUniqueViolation: Bool {
        // SQLITE_CONSTRAINT_UNIQUE and SQLITE_CONSTRAINT_PRIMARYKEY: macros Swift cannot import.
        extendedCode == SQLITE_CONSTRAINT | (8 << 8) || extendedCode == SQLITE_CONSTRAINT | (6 << 8)
    }

    /// The columns SQLite names in a UNIQUE refusal (`UNIQUE constraint failed: t.a, t.b`),
    /// without their table; empty for any other error.
    public var uniqueColumns: [String] {
        guard isUniqueViolation, let range = message.range(of: "constraint failed: ") else { return [] }
        return message[range.upperBound...].split(separator: ",").compactMap { part in
            part.trimmingCharacters(in: .whitespaces).split(separator: ".").last.map(String.init)
        }
    }

    /// The statement was refused for the values of the row it writes, and SQLite undid just
    /// that statement (the transaction goes on): a constraint or a trigger's `RAISE(ABORT)`
    /// (`SQLITE_CONSTRAINT`), a function a trigger calls failing on the value (`SQLITE_ERROR`),
    /// a datatype mismatch (`SQLITE_MISMATCH`) or a value too big (`SQLITE_TOOBIG`).
    public var isRowRefusal: Bool {
        code == SQLITE_CONSTRAINT || code == SQLITE_ERROR || code == SQLITE_MISMATCH || code == SQLITE_TOOBIG
    }

    /// Another connection holds a lock this one needs (`SQLITE_BUSY`), after any busy timeout
    /// ran out. Retrying later may succeed.
    public var isBusy: Bool { code == SQLITE_BUSY }

    /// A conflict inside this same connection (`SQLITE_LOCKED`), e.g. dropping a table a
    /// running statement reads. Retrying without changing what the connection does will not help.
    public var isLocked: Bool { code == SQLITE_LOCKED }

    /// The database refuses writes (`SQLITE_READONLY`): opened read-only, or a read-only file.
    public var isReadOnly: Bool { code == SQLITE_READONLY }

    /// The file is not a database, or is damaged (`SQLITE_NOTADB`, `SQLITE_CORRUPT`).
    public var isNotADatabase: Bool { code == SQLITE_NOTADB || code == SQLITE_CORRUPT }

    /// The file itself is what is wrong (missing, a directory, not an SQLite database, damaged),
    /// found while opening it: ``message`` says so in words a person can act on.
    public var isFileProblem: Bool {
        path != nil && sql == nil && (code == SQLITE_CANTOPEN || isNotADatabase)
    }

    /// The words of a lock another process held past the busy timeout; messages that wrap
    /// such an error keep them, so the CLI can tell it from other failures.
    public static let heldByAnotherProcess = "held by another process"

    /// What to write after a message that already names the file: for a file problem only the
    /// words ("it is a directory, not a database file"), otherwise the whole description.
    public var reasonAfterPath: String { isFileProblem ? message : description }

    /// A file problem reads "PATH: it is a directory, not a database file"; anything else as GRDB
    /// words it, with the SQL or the path.
    public var description: String {
        if isFileProblem, let path { return "\(path): \(message)" }
        if isBusy, let path { return "\(path) is \(message)" }
        var text = "SQLite error \(code): \(message)"
        if let sql { text += " - while executing \"\(sql)\"" }
        if let path { text += " - while opening \"\(path)\"" }
        return text
    }
}

extension SQLiteError {
    /// The error the connection last recorded, as SQLite words it.
    static func last(_ db: OpaquePointer?, code: Int32, sql: String? = nil, path: String? = nil) -> SQLiteError {
        // sqlite3_errmsg is valid for a NULL handle too ("out of memory"); the handle's extended
        // code can lag behind `code` when the failure was not recorded on the handle.
        let message = String(cString: sqlite3_errmsg(db))
        let extended = db.map { sqlite3_extended_errcode($0) } ?? code
        return SQLiteError(extendedCode: (extended & 0xFF) == (code & 0xFF) ? extended : code,
                           message: message, sql: sql, path: path)
    }

    /// A call the wrapper refuses before SQLite sees it (unknown parameter name, ...).
    static func misuse(_ message: String, sql: String? = nil) -> SQLiteError {
        SQLiteError(extendedCode: SQLITE_MISUSE, message: message, sql: sql)
    }
}
