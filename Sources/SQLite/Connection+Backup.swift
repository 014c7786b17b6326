import CSQLite

extension Connection {
    /// Copies the whole database, page for page, into a new file (SQLite's online backup API):
    /// rowids, free pages and the file format stay exactly as they are, unlike `VACUUM INTO`.
    /// Works on a read-only connection; the copy reads one consistent state.
    /// - Parameter path: the file to write; created, or overwritten when it exists.
    /// - Throws: ``SQLiteError`` naming `path` when it cannot be written.
    public func copy(to path: String) throws {
        let target = try Connection(path: path, mode: .create)
        // Owned here until sqlite3_backup_finish; nil when init failed (the error is on target).
        guard let backup = sqlite3_backup_init(target.handle, "main", handle, "main") else {
            throw SQLiteError.last(target.handle, code: sqlite3_errcode(target.handle), path: path)
        }
        let step = sqlite3_backup_step(backup, -1)  // -1: every page in one step; SQLITE_DONE when finished
        let finish = sqlite3_backup_finish(backup)  // the step's failure, if any, again
        guard step == SQLITE_DONE, finish == SQLITE_OK else {
            throw SQLiteError.last(target.handle, code: step == SQLITE_DONE ? finish : step, path: path)
        }
    }
}
