import Testing
import TestSupport

@Suite("PostgreSQL test cluster")
struct AvailabilityTests {
    /// Under CI the PostgreSQL tests must run: a missing cluster fails here instead of letting
    /// every other PostgreSQL test pass by being skipped.
    @Test("under CI=true the cluster of make test is there")
    func clusterPresentUnderCI() {
        if PostgreSQLTestServer.isCI && !PostgreSQLTestServer.isAvailable {
            Issue.record("CI=true but \(PostgreSQLTestServer.unavailableNote)")
        }
    }
}
