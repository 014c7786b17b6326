import Foundation
import TestSupport
@testable import PostgreSQL

/// Two connections on two threads: each locks its own row, then waits for the other's.
/// The server's deadlock check (deadlock_timeout lowered to 100 ms) aborts exactly one.
struct DeadlockRace {
    let table: String

    /// Each side's error, nil for the one that committed.
    func run() throws -> [(any Error)?] {
        let locked = [DispatchSemaphore(value: 0), DispatchSemaphore(value: 0)]
        let outcomes = Outcomes()
        let group = DispatchGroup()
        for side in 0..<2 {
            let (own, other) = side == 0 ? (1, 2) : (2, 1)
            let conninfo = PostgreSQLTestServer.superuser, table = table
            DispatchQueue.global().async(group: group) {
                let outcome: (any Error)?
                do {
                    let db = try Connection(conninfo)
                    try db.execute("SET deadlock_timeout = '100ms'")
                    try db.withTransaction {
                        try db.execute("UPDATE \(table) SET n = n + 1 WHERE id = $1", [.int(own)])
                        locked[side].signal()
                        locked[1 - side].wait()
                        try db.execute("UPDATE \(table) SET n = n + 1 WHERE id = $1", [.int(other)])
                    }
                    outcome = nil
                } catch {
                    locked[side].signal()  // never leave the other side waiting
                    outcome = error
                }
                outcomes.append(outcome)
            }
        }
        guard group.wait(timeout: .now() + 60) == .success else {
            throw TestSupportError("the deadlock race did not finish in 60 s")
        }
        return outcomes.all
    }
}

/// The outcomes of the two threads, appended under a lock.
private final class Outcomes: @unchecked Sendable {
    private let lock = NSLock()
    private var values: [(any Error)?] = []

    func append(_ value: (any Error)?) { lock.withLock { values.append(value) } }
    var all: [(any Error)?] { lock.withLock { values } }
}
