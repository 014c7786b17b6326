import Testing
import TestSupport
@testable import PostgreSQL

@Suite("Transactions and savepoints", .needsPostgreSQL)
struct TransactionTests {
    private func makeTable(_ db: Connection) throws -> String {
        let table = PostgreSQLTestServer.uniqueName("tx")
        try db.execute("CREATE TABLE \(table)(id int PRIMARY KEY)")
        return table
    }

    private func ids(_ db: Connection, _ table: String) throws -> [Int] {
        try db.query("SELECT id FROM \(table) ORDER BY id").map { try $0.int(0)! }
    }

    @Test("a transaction commits when its body returns and rolls back when it throws")
    func commitAndRollback() throws {
        let db = try connectToTestDatabase()
        let table = try makeTable(db)
        defer { try? db.execute("DROP TABLE \(table)") }
        try db.withTransaction { try db.execute("INSERT INTO \(table) VALUES (1)", []) }
        _ = postgreSQLError {
            try db.withTransaction(.repeatableRead) {
                try db.execute("INSERT INTO \(table) VALUES (2)", [])
                try db.execute("INSERT INTO \(table) VALUES (1)", [])  // unique violation
            }
        }
        #expect(try ids(db, table) == [1])
        #expect(!db.isInTransaction)
    }

    @Test("a savepoint undoes only its own part, and the transaction goes on after a refused statement")
    func savepoints() throws {
        let db = try connectToTestDatabase()
        let table = try makeTable(db)
        defer { try? db.execute("DROP TABLE \(table)") }
        try db.withTransaction {
            try db.execute("INSERT INTO \(table) VALUES (1)", [])
            let refused = postgreSQLError {
                try db.withSavepoint {
                    try db.execute("INSERT INTO \(table) VALUES (2)", [])
                    try db.withTransaction { try db.execute("INSERT INTO \(table) VALUES (1)", []) }  // nested: a savepoint
                }
            }
            #expect(refused?.isUniqueViolation == true)
            try db.execute("INSERT INTO \(table) VALUES (3)", [])
        }
        #expect(try ids(db, table) == [1, 3])
    }

    @Test("a swallowed error inside a transaction does not pass for a commit")
    func failedTransactionIsNotACommit() throws {
        let db = try connectToTestDatabase()
        let table = try makeTable(db)
        defer { try? db.execute("DROP TABLE \(table)") }
        let error = postgreSQLError {
            try db.withTransaction {
                try db.execute("INSERT INTO \(table) VALUES (1)", [])
                _ = try? db.execute("INSERT INTO \(table) VALUES (1)", [])
            }
        }
        #expect(error?.sqlState == "25P02")
        #expect(try ids(db, table).isEmpty)
    }

    @Test("a read-only transaction refuses writes")
    func readOnly() throws {
        let db = try connectToTestDatabase()
        let table = try makeTable(db)
        defer { try? db.execute("DROP TABLE \(table)") }
        let error = postgreSQLError {
            try db.withTransaction(readOnly: true) { _ = try db.execute("INSERT INTO \(table) VALUES (1)", []) }
        }
        #expect(error?.sqlState == "25006")
    }
}
