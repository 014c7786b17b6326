/// Statements of one connection prepared once per SQL text and reused: work that runs the
/// same few statements for thousands of rows (a sync, tile lookups) pays the compile once.
///
/// - Important: The statements belong to the connection's owner: one user at a time, like the
///   connection. A statement handed out is reset before each use; the caller resets it again
///   when done (`defer { statement.reset() }`), so that it holds no read lock while idle.
public final class StatementCache {
    public let connection: Connection
    private var statements: [String: Statement] = [:]

    public init(_ connection: Connection) {
        self.connection = connection
    }

    /// The statement for `sql`, prepared on first use, rewound and ready to bind.
    /// - Throws: ``SQLiteError`` when `sql` does not compile.
    public func statement(_ sql: String) throws -> Statement {
        if let statement = statements[sql] {
            statement.reset()
            return statement
        }
        let statement = try connection.prepare(sql)
        statements[sql] = statement
        return statement
    }
}
