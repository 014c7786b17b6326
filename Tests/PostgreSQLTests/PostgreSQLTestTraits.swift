import Testing
import TestSupport
@testable import PostgreSQL

extension Trait where Self == ConditionTrait {
    /// Runs the test only beside the cluster of `make test`; otherwise it shows as skipped, with
    /// the reason (and AvailabilityTests fails under CI).
    static var needsPostgreSQL: Self {
        .enabled(if: PostgreSQLTestServer.isAvailable, Comment(rawValue: PostgreSQLTestServer.unavailableNote))
    }
}

/// A connection to the test database as superuser.
func connectToTestDatabase() throws -> Connection {
    try Connection(PostgreSQLTestServer.superuser)
}

/// The error `body` throws, as a PostgreSQLError; records an issue when it throws none or another.
func postgreSQLError(_ body: () throws -> Void, sourceLocation: SourceLocation = #_sourceLocation) -> PostgreSQLError? {
    do {
        try body()
        Issue.record("expected a PostgreSQLError, nothing was thrown", sourceLocation: sourceLocation)
    } catch let error as PostgreSQLError {
        return error
    } catch {
        Issue.record("expected a PostgreSQLError, got \(error)", sourceLocation: sourceLocation)
    }
    return nil
}
