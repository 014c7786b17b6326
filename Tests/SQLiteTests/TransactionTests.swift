import Foundation
import Testing
import TestSupport
@testable import SQLite

private struct Abort: Error, Equatable { var step: String }

@Suite("withTransaction: commit, rollback on throw, nested savepoints")
struct TransactionTests {
    private func makeDatabase() throws -> Connection {
        let db = try Connection(path: ":memory:")
        try db.execute("CREATE TABLE t(x UNIQUE)")
        return db
    }

    private func values(_ db: Connection) throws -> [SQLiteValue] {
        try db.query("SELECT x FROM t ORDER BY x").map { $0[0] }
    }

    @Test("commits when the body returns, and hands back its result", arguments: [
        Connection.TransactionKind.deferred, .immediate, .exclusive,
    ])
    func commits(kind: Connection.TransactionKind) throws {
        let db = try makeDatabase()
        let result = try db.withTransaction(kind) {
            #expect(db.isInTransaction)
            try db.execute("INSERT INTO t VALUES (1), (2)")
            return db.changes
        }
        #expect(result == 2)
        #expect(!db.isInTransaction)
        #expect(try values(db) == [1, 2])
    }

    @Test("rolls back every change when the body throws, and rethrows that error")
    func rollsBackOnThrow() throws {
        let db = try makeDatabase()
        try db.execute("INSERT INTO t VALUES (0)")
        let error = try #require(throws: Abort.self) {
            try db.withTransaction {
                try db.execute("INSERT INTO t VALUES (1)")
                try db.execute("UPDATE t SET x = 10 WHERE x = 0")
                throw Abort(step: "after update")
            }
        }
        #expect(error == Abort(step: "after update"))
        #expect(!db.isInTransaction)
        #expect(try values(db) == [0])
    }

    @Test("an SQL failure inside rolls back and is the error thrown")
    func sqlFailureRollsBack() throws {
        let db = try makeDatabase()
        let error = try #require(throws: SQLiteError.self) {
            try db.withTransaction(.immediate) {
                try db.execute("INSERT INTO t VALUES (1)")
                try db.execute("INSERT INTO t VALUES (1)")
            }
        }
        #expect(error.isConstraintViolation)
        #expect(error.description == "SQLite error 19: UNIQUE constraint failed: t.x - while executing \"INSERT INTO t VALUES (1)\"")
        #expect(try values(db) == [])
    }

    @Test("a nested call is a savepoint: its throw undoes only the inner part")
    func nestedSavepointRollsBackInnerOnly() throws {
        let db = try makeDatabase()
        try db.withTransaction {
            try db.execute("INSERT INTO t VALUES (1)")
            #expect(throws: Abort(step: "inner")) {
                try db.withTransaction {
                    try db.execute("INSERT INTO t VALUES (2)")
                    try db.withTransaction { try db.execute("INSERT INTO t VALUES (3)") }
                    throw Abort(step: "inner")
                }
            }
            #expect(db.isInTransaction)
            try db.withTransaction { try db.execute("INSERT INTO t VALUES (4)") }
            try db.execute("INSERT INTO t VALUES (5)")
        }
        #expect(try values(db) == [1, 4, 5])
    }

    @Test("an inner savepoint that succeeds is undone with the outer transaction")
    func outerThrowUndoesReleasedSavepoint() throws {
        let db = try makeDatabase()
        #expect(throws: Abort(step: "outer")) {
            try db.withTransaction {
                try db.withTransaction { try db.execute("INSERT INTO t VALUES (1)") }
                throw Abort(step: "outer")
            }
        }
        #expect(try values(db) == [])
    }

    @Test("a transaction the caller began with BEGIN gets a savepoint, not a second BEGIN")
    func insideCallersTransaction() throws {
        let db = try makeDatabase()
        try db.execute("BEGIN")
        #expect(throws: Abort.self) {
            try db.withTransaction {
                try db.execute("INSERT INTO t VALUES (1)")
                throw Abort(step: "x")
            }
        }
        try db.execute("INSERT INTO t VALUES (2)")
        try db.execute("COMMIT")
        #expect(try values(db) == [2])
    }
}
