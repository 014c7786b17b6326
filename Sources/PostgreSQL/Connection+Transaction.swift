extension Connection {
    /// The isolation levels of `BEGIN ISOLATION LEVEL`.
    public enum IsolationLevel: String, Sendable, Hashable {
        case readCommitted = "READ COMMITTED"
        case repeatableRead = "REPEATABLE READ"
        case serializable = "SERIALIZABLE"
    }

    /// Runs `body` in a transaction: commits when it returns, rolls back when it throws.
    ///
    /// Called inside another transaction it becomes a savepoint (``withSavepoint(_:)``; the
    /// isolation then is the outer one's). A COMMIT the server turned into a ROLLBACK (the
    /// transaction had failed, and `body` swallowed the error) throws rather than pass for a commit.
    /// - Throws: `body`'s error, or the COMMIT's (a serialization failure can come at COMMIT).
    @discardableResult
    public func withTransaction<T>(_ isolation: IsolationLevel = .readCommitted, readOnly: Bool = false,
                                   _ body: () throws -> T) throws -> T {
        if isInTransaction { return try withSavepoint(body) }
        try execute("BEGIN ISOLATION LEVEL \(isolation.rawValue)\(readOnly ? " READ ONLY" : "")")
        let value: T
        do {
            value = try body()
            try commit()
        } catch {
            if isInTransaction { try? execute("ROLLBACK") }
            throw error
        }
        return value
    }

    /// Commits the open transaction. A COMMIT the server turned into a ROLLBACK (the
    /// transaction had failed, and the caller swallowed the error) throws rather than pass for
    /// a commit.
    /// - Throws: ``PostgreSQLError``: 25P02 for that rollback; a serialization failure can
    ///   come at COMMIT too.
    public func commit() throws {
        let commit = try run("COMMIT", [])
        if commit.commandStatus == "ROLLBACK" {
            throw PostgreSQLError(.server(ServerDiagnostics(sqlState: "25P02")),
                                  "the transaction failed before COMMIT and was rolled back (\(info))")
        }
    }

    /// Runs `body` under a savepoint of the open transaction: a throw undoes only what `body`
    /// did, and the transaction goes on.
    @discardableResult
    public func withSavepoint<T>(_ body: () throws -> T) throws -> T {
        savepointDepth += 1
        defer { savepointDepth -= 1 }
        let name = "pkgbuild_savepoint_\(savepointDepth)"
        try execute("SAVEPOINT \(name)")
        let value: T
        do {
            value = try body()
        } catch {
            // ROLLBACK TO keeps the savepoint; RELEASE then drops it, leaving the transaction as
            // it was before this call (and out of the failed state a refused statement left).
            if isInTransaction { try? execute("ROLLBACK TO SAVEPOINT \(name); RELEASE SAVEPOINT \(name)") }
            throw error
        }
        try execute("RELEASE SAVEPOINT \(name)")
        return value
    }

    /// Runs `body` in a transaction, again from the start when the server aborted it for a
    /// serialization failure or a deadlock, at most `attempts` times in all.
    /// - Throws: the last attempt's error, or any other error at once.
    @discardableResult
    public func withRetriedTransaction<T>(_ isolation: IsolationLevel = .serializable, attempts: Int = 5,
                                          _ body: () throws -> T) throws -> T {
        precondition(attempts >= 1 && !isInTransaction, "a retried transaction must be the outermost, tried at least once")
        for attempt in 1... {
            do {
                return try withTransaction(isolation, body)
            } catch let error as PostgreSQLError where error.isRetryable && attempt < attempts {
                continue
            }
        }
        fatalError("unreachable: the loop returns or throws")
    }
}
