import CSQLite
import Foundation

/// A connection to one SQLite database (`sqlite3 *`), closed when the value is released.
///
/// - Important: A connection has one owner at a time: it is not `Sendable` and must not be
///   used from two threads at once (it is opened without SQLite's own mutex). Parallel work
///   opens its own connections; results cross threads as ``SQLiteValue``s.
public final class Connection {
    /// How a database file is opened.
    public enum OpenMode: Sendable, Hashable {
        /// Reads only; every write fails with `SQLITE_READONLY`. The file must exist.
        case readOnly
        /// Reads and writes; the file must exist.
        case readWrite
        /// Reads and writes; the file is created when missing.
        case create
    }

    /// SQLite's journal modes (`PRAGMA journal_mode`).
    public enum JournalMode: String, Sendable, Hashable {
        case delete, truncate, persist, memory, wal, off
    }

    /// The C handle; owned by this object and closed in `deinit`.
    let handle: OpaquePointer
    /// The path (or URI) the connection was opened with.
    public let path: String
    /// Keeps the authorizer's Swift callback alive while SQLite holds a pointer to it.
    var authorizerBox: AuthorizerBox?
    /// Depth of `withTransaction` nesting, to name savepoints uniquely.
    var savepointDepth = 0
    /// The busy handler's state; SQLite holds an unretained pointer to it until the handle closes.
    private let busyWaiter: BusyWaiter

    /// Opens (or creates) a database.
    /// - Parameters:
    ///   - path: a file path, `":memory:"`, or a `file:` URI when `uri` is true.
    ///   - mode: read-only, read-write, or create when missing.
    ///   - uri: interpret `path` as an SQLite URI (`file:data.gpkg?immutable=1`).
    ///   - busyTimeout: seconds to wait for another connection's lock before failing with
    ///     `SQLITE_BUSY`; nil or 0 fails at once.
    ///   - journalMode: set the journal mode after opening (`.wal` lets readers and one writer
    ///     work at the same time); nil leaves the file's mode as it is.
    /// - Throws: ``SQLiteError`` naming the path when the file cannot be opened (in words: no
    ///   such file, a directory, not an SQLite database; see ``SQLiteError/isFileProblem``), or
    ///   when the journal mode cannot be set.
    public init(path: String, mode: OpenMode = .create, uri: Bool = false,
                busyTimeout: Double? = nil, journalMode: JournalMode? = nil) throws {
        var flags: Int32
        switch mode {
        case .readOnly: flags = SQLITE_OPEN_READONLY
        case .readWrite: flags = SQLITE_OPEN_READWRITE
        case .create: flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
        }
        // One owner at a time (see the type's doc), so SQLite's per-connection mutex is not needed.
        flags |= SQLITE_OPEN_NOMUTEX
        if uri { flags |= SQLITE_OPEN_URI }

        _ = Connection.processConfiguration
        let isFile = Self.namesFile(path, uri: uri)
        if isFile { try mode == .create ? Self.checkParentDirectory(path) : Self.checkExistingFile(path) }
        var db = try Self.open(path, flags: flags)
        if mode == .readOnly && !uri && !Self.canRead(db) {
            // A file the user may only read, in a directory they may not write: SQLite cannot
            // create the -shm (WAL) or take its locks. With nothing outside the main file,
            // the main file is the whole database, and immutable mode reads it as it is.
            sqlite3_close_v2(db)
            try Self.checkNothingOutsideMainFile(path)
            db = try Self.open(Self.immutableURI(path), flags: flags | SQLITE_OPEN_URI, reportedPath: path)
        }
        if isFile && mode != .create {
            do { try Self.checkIsDatabase(db, path: path) } catch {
                sqlite3_close_v2(db)
                throw error
            }
        }
        handle = db
        self.path = path
        sqlite3_extended_result_codes(db, 1)
        let policy = LockWait.current
        busyWaiter = BusyWaiter(timeout: 0, path: path, policy: policy)
        if let busyTimeout {
            // Observers do not run for assignments in the type's own initializer. A connection
            // that waits at all waits as long as the command line was told to.
            self.busyTimeout = busyTimeout > 0 ? policy.timeout ?? busyTimeout : busyTimeout
            applyBusyTimeout()
        }
        if let journalMode { try setJournalMode(journalMode) }
    }

    private static func open(_ path: String, flags: Int32, reportedPath: String? = nil) throws -> OpaquePointer {
        var db: OpaquePointer?
        let rc = sqlite3_open_v2(path, &db, flags, nil)
        guard rc == SQLITE_OK, let db else {
            // A handle comes back even on failure (except out of memory) and must be closed.
            let error = SQLiteError.last(db, code: rc, path: reportedPath ?? path)
            sqlite3_close_v2(db)
            throw error
        }
        return db
    }

    /// False when reading fails only for want of write access (SQLite's `-shm` or lock files
    /// cannot be made: `SQLITE_CANTOPEN`, `SQLITE_READONLY`). Other failures (not a
    /// database, ...) are left for the first statement to report, as without this check.
    private static func canRead(_ db: OpaquePointer) -> Bool {
        let rc = sqlite3_exec(db, "PRAGMA schema_version", nil, nil, nil)  // reads page 1
        let primary = rc & 0xFF
        return !(primary == SQLITE_CANTOPEN || primary == SQLITE_READONLY)
    }

    /// Immutable mode ignores a `-wal` and a `-journal`: it may be used only when both are
    /// absent or empty, or it would read a database without its latest commits (WAL) or in
    /// the middle of an interrupted write (a hot journal).
    static func checkNothingOutsideMainFile(_ path: String) throws {
        for (suffix, what) in [("-wal", "changes committed to its -wal file and not yet copied into the main file"),
                               ("-journal", "a hot journal: an interrupted write to be rolled back first")] {
            var info = stat()
            guard stat(path + suffix, &info) == 0, info.st_size > 0 else { continue }
            // SQLITE_READONLY_CANTINIT: a read-only process cannot bring the WAL state in.
            throw SQLiteError(extendedCode: SQLITE_READONLY | (5 << 8), message: """
                \(path) cannot be read without write access: \(path + suffix) holds \(what), which a read-only \
                open cannot read; open it once with write access to the file and its directory (any SQLite \
                client, e.g. sqlite3 \(path) 'PRAGMA wal_checkpoint') and try again
                """, path: path)
        }
    }

    /// `file:` URI for `path` in immutable mode, with the characters a URI gives meaning escaped.
    static func immutableURI(_ path: String) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        var bytes: [UInt8] = []
        // One leading slash: `file://x` would name a host.
        let trimmed = path.hasPrefix("/") ? "/" + path.drop(while: { $0 == "/" }) : path
        for byte in trimmed.utf8 {
            if byte == UInt8(ascii: "%") || byte == UInt8(ascii: "?") || byte == UInt8(ascii: "#") {
                bytes += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
            } else {
                bytes.append(byte)
            }
        }
        return "file:" + String(decoding: bytes, as: UTF8.self) + "?immutable=1"
    }

    /// Settings SQLite takes only before its first use in the process, applied by the first
    /// connection opened. Too late (another library used SQLite first) they are left as they
    /// were, which changes speed only.
    private static let processConfiguration: Void = {
        _ = csqlite_disable_memory_statistics()
    }()

    deinit {
        sqlite3_set_authorizer(handle, nil, nil)
        // Statements keep their connection alive, so none is left open here; close_v2 also runs
        // the destructors of registered functions, releasing their Swift closures.
        sqlite3_close_v2(handle)
    }

    /// Seconds to wait for another connection's lock before a statement fails with
    /// `SQLITE_BUSY` (0: fail at once). The wait is announced to ``LockWait/current``'s
    /// `onWait` as it was when the connection opened.
    public var busyTimeout: Double = 0 {
        didSet { applyBusyTimeout() }
    }

    private func applyBusyTimeout() {
        let seconds = busyTimeout.isNaN ? 0 : max(0, busyTimeout)
        busyWaiter.timeout = seconds
        if seconds > 0 {
            sqlite3_busy_handler(handle, BusyWaiter.callback, Unmanaged.passUnretained(busyWaiter).toOpaque())
        } else {
            sqlite3_busy_handler(handle, nil, nil)
        }
    }

    /// The error SQLite recorded for `code`; a lock another process held past the busy timeout
    /// names the file and how long it waited instead of SQLite's "database is locked".
    func failure(_ code: Int32, sql: String?) -> SQLiteError {
        var error = SQLiteError.last(handle, code: code, sql: sql)
        // SQLite's own words for a lock (a function may throw SQLITE_BUSY with words of its own).
        if error.isBusy && error.message.hasPrefix("database is locked") {
            error.path = sqlite3_db_filename(handle, "main").map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 } ?? path
            error.message = busyTimeout > 0
                ? "\(SQLiteError.heldByAnotherProcess): gave up after waiting \(String(format: "%g", busyTimeout)) s"
                : SQLiteError.heldByAnotherProcess
        }
        return error
    }

    /// Sets `PRAGMA journal_mode` and checks SQLite took it (WAL is refused for in-memory
    /// databases, and cannot be entered on a read-only connection to a non-WAL file).
    public func setJournalMode(_ mode: JournalMode) throws {
        let sql = "PRAGMA journal_mode = \(mode.rawValue)"
        let result = try scalar(sql)?.stringValue?.lowercased()
        guard result == mode.rawValue else {
            throw SQLiteError(extendedCode: SQLITE_ERROR,
                              message: "journal mode stayed \(result ?? "unknown"), not \(mode.rawValue)",
                              sql: sql, path: path)
        }
    }

    /// The journal mode in effect.
    public var journalMode: JournalMode? {
        get throws {
            try scalar("PRAGMA journal_mode")?.stringValue.flatMap { JournalMode(rawValue: $0.lowercased()) }
        }
    }

    /// The rowid of the last successful INSERT on this connection.
    public var lastInsertRowID: Int64 { sqlite3_last_insert_rowid(handle) }

    /// Rows changed by the last INSERT, UPDATE or DELETE (not counting triggers' changes).
    public var changes: Int { Int(sqlite3_changes64(handle)) }

    /// Rows changed since the connection opened (triggers' changes included).
    public var totalChanges: Int { Int(sqlite3_total_changes64(handle)) }

    /// True between BEGIN and COMMIT/ROLLBACK (SQLite is not in autocommit mode).
    public var isInTransaction: Bool { sqlite3_get_autocommit(handle) == 0 }

    /// True when the main database refuses writes (opened read-only, or a read-only file).
    public var isReadOnly: Bool { sqlite3_db_readonly(handle, "main") == 1 }

    /// Prepares one statement.
    /// - Throws: ``SQLiteError`` with the SQL when it does not compile, or holds more than one statement.
    public func prepare(_ sql: String) throws -> Statement {
        try Statement(connection: self, sql: sql)
    }

    /// Runs one or more statements separated by semicolons, discarding any rows; stops at
    /// the first failure, whose error carries the statement that failed.
    public func execute(_ sql: String) throws {
        try sql.withCString { start in
            var next: UnsafePointer<CChar>? = start
            while let current = next, current.pointee != 0 {
                var stmt: OpaquePointer?
                var tail: UnsafePointer<CChar>?
                let rc = sqlite3_prepare_v2(handle, current, -1, &stmt, &tail)
                let text = Self.text(from: current, to: tail)
                guard rc == SQLITE_OK else {
                    throw failure(rc, sql: text)
                }
                next = tail
                // Whitespace or a comment compiles to no statement.
                guard let stmt else { continue }
                defer { sqlite3_finalize(stmt) }
                var step = sqlite3_step(stmt)
                while step == SQLITE_ROW { step = sqlite3_step(stmt) }
                guard step == SQLITE_DONE else {
                    throw failure(step, sql: text)
                }
            }
        }
    }

    /// Runs one statement with positional arguments, discarding any rows.
    public func execute(_ sql: String, _ arguments: [SQLiteValue]) throws {
        let statement = try prepare(sql)
        try statement.bind(arguments)
        while try statement.step() {}
    }

    /// Runs one statement and returns all its rows: for small results (metadata, tests).
    /// Use ``forEachRow(_:_:_:)`` to stream large ones.
    public func query(_ sql: String, _ arguments: [SQLiteValue] = []) throws -> [[SQLiteValue]] {
        let statement = try prepare(sql)
        try statement.bind(arguments)
        var rows: [[SQLiteValue]] = []
        while let row = try statement.nextRow() { rows.append(row) }
        return rows
    }

    /// The first column of the first row, or nil when there is no row.
    public func scalar(_ sql: String, _ arguments: [SQLiteValue] = []) throws -> SQLiteValue? {
        let statement = try prepare(sql)
        try statement.bind(arguments)
        guard try statement.step() else { return nil }
        return statement.value(at: 0)
    }

    /// Runs one statement and calls `body` for each row, reading it from the statement's
    /// column getters; nothing is kept between rows, so memory does not grow with the result.
    public func forEachRow(_ sql: String, _ arguments: [SQLiteValue] = [],
                           _ body: (Statement) throws -> Void) throws {
        let statement = try prepare(sql)
        try statement.bind(arguments)
        try statement.forEachRow(body)
    }

    /// The text between two pointers into the same C string (the statement prepare consumed).
    static func text(from start: UnsafePointer<CChar>, to end: UnsafePointer<CChar>?) -> String {
        guard let end else { return String(cString: start) }
        let bytes = UnsafeRawBufferPointer(start: start, count: end - start)
        return String(decoding: bytes, as: UTF8.self).trimmingWhitespace()
    }
}

extension String {
    func trimmingWhitespace() -> String {
        let isSpace: (Character) -> Bool = { $0.isWhitespace }
        guard let first = firstIndex(where: { !isSpace($0) }),
              let last = lastIndex(where: { !isSpace($0) }) else { return "" }
        return String(self[first...last])
    }
}
