import Testing
import TestSupport

extension Trait where Self == ConditionTrait {
    /// Runs the test only beside the cluster of `make test` (skipped otherwise, failed under CI
    /// by PostgreSQLTests.AvailabilityTests).
    static var needsPostgreSQL: Self {
        .enabled(if: PostgreSQLTestServer.isAvailable, Comment(rawValue: PostgreSQLTestServer.unavailableNote))
    }
}

typealias PostgreSQLSourceFixture = PostGISSource
