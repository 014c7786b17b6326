import PackageFormat
import SQLite
@testable import Sync
import Testing

/// A step of a sync says by its result how its transaction ends: a stop on conflicts (or a
/// dry run) undoes what the step wrote and still comes back as the step's result, any other
/// result commits, and a step's error rolls back and is rethrown.
@Suite("Transactions a sync step's result ends")
struct StepTransactionTests {
    private func database() throws -> Connection {
        let db = try Connection(path: ":memory:")
        try db.execute("CREATE TABLE t (v INTEGER)")
        return db
    }

    private func rows(_ db: Connection) throws -> Int64? {
        try db.scalar("SELECT count(*) FROM t")?.int64Value
    }

    private let conflict = Conflict(table: "t", globalID: "g1", column: "v", kind: .constraint,
                                    packageValue: "update", message: "held")

    @Test func aStopOnConflictsIsRolledBackAndReturned() throws {
        let db = try database()
        let outcome = try SyncRun.returning({ () throws -> UploadStepOutcome in
            try db.execute("INSERT INTO t VALUES (1)")
            return .stoppedOnConflicts(UploadOutcome(conflicts: [conflict]))
        }, in: { try db.withTransaction(.immediate, $0) })
        guard case .stoppedOnConflicts(let stopped) = outcome else {
            Issue.record("expected the stop back, got \(outcome)")
            return
        }
        #expect(stopped.conflicts == [conflict])
        #expect(try rows(db) == 0)
        #expect(!db.isInTransaction)
    }

    @Test func anAppliedUploadIsCommitted() throws {
        let db = try database()
        let outcome = try SyncRun.returning({ () throws -> UploadStepOutcome in
            try db.execute("INSERT INTO t VALUES (1)")
            return .applied(UploadOutcome(conflicts: [conflict]))
        }, in: { try db.withTransaction(.immediate, $0) })
        guard case .applied(let applied) = outcome else {
            Issue.record("expected the upload back, got \(outcome)")
            return
        }
        #expect(applied.conflicts == [conflict])
        #expect(try rows(db) == 1)
        #expect(!db.isInTransaction)
    }

    /// In a dry run the source's transaction is already open: the stop undoes the step's
    /// writes only, and the outer transaction goes on.
    @Test func insideAnOpenTransactionOnlyTheStepIsUndone() throws {
        let db = try database()
        try db.execute("BEGIN IMMEDIATE")
        try db.execute("INSERT INTO t VALUES (1)")
        let outcome = try SyncRun.returning({ () throws -> UploadStepOutcome in
            try db.execute("INSERT INTO t VALUES (2)")
            return .stoppedOnConflicts(UploadOutcome())
        }, in: { try db.withTransaction(.immediate, $0) })
        #expect(outcome.rollsBack)
        #expect(db.isInTransaction)
        #expect(try rows(db) == 1)
        try db.execute("ROLLBACK")
    }

    @Test func aStepsErrorRollsBackAndIsRethrown() throws {
        struct Failure: Error {}
        let db = try database()
        #expect(throws: Failure.self) {
            try SyncRun.returning({ () throws -> UploadStepOutcome in
                try db.execute("INSERT INTO t VALUES (1)")
                throw Failure()
            }, in: { try db.withTransaction(.immediate, $0) })
        }
        #expect(try rows(db) == 0)
        #expect(!db.isInTransaction)
    }
}
