import CSQLite

extension Connection {
    /// When a transaction takes its locks (SQLite's `BEGIN DEFERRED/IMMEDIATE/EXCLUSIVE`).
    public enum TransactionKind: String, Sendable, Hashable {
        /// Locks on first read or write; a later write can fail with `SQLITE_BUSY`.
        case deferred = "DEFERRED"
        /// Takes the write lock at once, so writes later in the transaction cannot be refused.
        case immediate = "IMMEDIATE"
        /// Like immediate; in rollback-journal mode also keeps readers out.
        case exclusive = "EXCLUSIVE"
    }

    /// Runs `body` in a transaction: commits when it returns, rolls back when it throws.
    ///
    /// Called inside another transaction (this method, or a BEGIN of the caller's), it becomes
    /// a savepoint: a throw undoes only this call's changes, and the outer transaction goes on
    /// (`kind` then does not apply). A failed COMMIT rolls back too.
    ///
    /// - Returns: what `body` returns.
    /// - Throws: the first error: `body`'s own, or the COMMIT's. A failed rollback after
    ///   that is not reported, since the first error says what went wrong.
    @discardableResult
    public func withTransaction<T>(_ kind: TransactionKind = .deferred, _ body: () throws -> T) throws -> T {
        if isInTransaction { return try withSavepoint(body) }

        try execute("BEGIN \(kind.rawValue) TRANSACTION")
        let result: T
        do {
            result = try body()
            try execute("COMMIT TRANSACTION")
        } catch {
            // SQLite may have rolled back by itself already (SQLITE_FULL, SQLITE_IOERR...).
            if isInTransaction { try? execute("ROLLBACK TRANSACTION") }
            throw error
        }
        return result
    }

    private func withSavepoint<T>(_ body: () throws -> T) throws -> T {
        savepointDepth += 1
        defer { savepointDepth -= 1 }
        let name = "swift_savepoint_\(savepointDepth)"
        try execute("SAVEPOINT \(name)")
        let result: T
        do {
            result = try body()
        } catch {
            // ROLLBACK TO keeps the savepoint open; RELEASE removes it, leaving the outer
            // transaction as it was before this call.
            if isInTransaction { try? execute("ROLLBACK TO SAVEPOINT \(name); RELEASE SAVEPOINT \(name)") }
            throw error
        }
        try execute("RELEASE SAVEPOINT \(name)")
        return result
    }
}
