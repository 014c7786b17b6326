import Foundation
import Testing
import TestSupport
@testable import PostgreSQL

@Suite("Errors: SQLSTATE kinds and the names the server gives", .needsPostgreSQL)
struct ErrorTests {
    /// A table with a unique name, a NOT NULL column, a CHECK and a foreign key.
    private func makeTables(_ db: Connection) throws -> (parent: String, child: String) {
        let parent = PostgreSQLTestServer.uniqueName("parent"), child = PostgreSQLTestServer.uniqueName("child")
        try db.execute("""
            CREATE TABLE \(parent)(id int PRIMARY KEY);
            INSERT INTO \(parent) VALUES (1);
            CREATE TABLE \(child)(
                id int PRIMARY KEY,
                name text NOT NULL CONSTRAINT \(child)_name_unique UNIQUE,
                status text CONSTRAINT \(child)_status_in CHECK (status IN ('open', 'closed')),
                parent int CONSTRAINT \(child)_parent_fk REFERENCES \(parent)(id));
            INSERT INTO \(child) VALUES (1, 'Denali', 'open', 1);
            """)
        return (parent, child)
    }

    @Test("unique, not-null, check and foreign-key refusals name their constraint or column")
    func constraints() throws {
        let db = try connectToTestDatabase()
        let (parent, child) = try makeTables(db)
        defer { try? db.execute("DROP TABLE \(child); DROP TABLE \(parent)") }
        let insert = "INSERT INTO \(child) VALUES ($1, $2, $3, $4)"

        let unique = postgreSQLError { try db.execute(insert, [2, "Denali", "open", 1]) }
        #expect(unique?.isUniqueViolation == true)
        #expect(unique?.constraintName == "\(child)_name_unique")
        #expect(unique?.diagnostics?.detail == "Key (name)=(Denali) already exists.")
        #expect(unique?.message.contains("while executing \"INSERT INTO \(child)") == true)

        let notNull = postgreSQLError { try db.execute(insert, [3, nil, "open", 1]) }
        #expect(notNull?.isNotNullViolation == true)
        #expect(notNull?.diagnostics?.column == "name")
        #expect(notNull?.diagnostics?.table == child)

        let check = postgreSQLError { try db.execute(insert, [4, "Katmai", "lost", 1]) }
        #expect(check?.isCheckViolation == true)
        #expect(check?.constraintName == "\(child)_status_in")

        let foreignKey = postgreSQLError { try db.execute(insert, [5, "Sitka", "open", 99]) }
        #expect(foreignKey?.isForeignKeyViolation == true)
        #expect(foreignKey?.constraintName == "\(child)_parent_fk")

        for error in [unique, notNull, check, foreignKey] {
            #expect(error?.isIntegrityConstraintViolation == true)
            #expect(error?.isRetryable == false)
        }
    }

    @Test("a missing table is 42P01, a table the role may not create is 42501")
    func undefinedTableAndPrivilege() throws {
        let db = try connectToTestDatabase()
        let missing = postgreSQLError { _ = try db.query("SELECT * FROM no_such_table_here") }
        #expect(missing?.isUndefinedTable == true)
        let password = try #require(PostgreSQLTestServer.password)
        let limited = try Connection(PostgreSQLTestServer.passwordRoleConninfo(password: password))
        #expect(try limited.queryFirst("SELECT current_user")?.string(0) == PostgreSQLTestServer.passwordRole)
        let denied = postgreSQLError { try limited.execute("CREATE TABLE public.\(PostgreSQLTestServer.uniqueName("x"))(id int)") }
        #expect(denied?.isInsufficientPrivilege == true)
        #expect(denied?.message.contains(password) == false)
    }

    @Test("an update of a row another transaction changed after the snapshot is a serialization failure")
    func serializationFailure() throws {
        let first = try connectToTestDatabase(), second = try connectToTestDatabase()
        let table = PostgreSQLTestServer.uniqueName("serial")
        try first.execute("CREATE TABLE \(table)(id int PRIMARY KEY, n int); INSERT INTO \(table) VALUES (1, 0)")
        defer { try? first.execute("DROP TABLE \(table)") }
        let error = postgreSQLError {
            try first.withTransaction(.serializable) {
                _ = try first.query("SELECT n FROM \(table)")
                try second.execute("UPDATE \(table) SET n = n + 1", [])
                try first.execute("UPDATE \(table) SET n = n + 10", [])
            }
        }
        #expect(error?.isSerializationFailure == true)
        #expect(error?.isRetryable == true)
        #expect(!first.isInTransaction, "rolled back")
        #expect(try first.queryFirst("SELECT n FROM \(table)")?.int(0) == 1)
    }

    @Test("a retried transaction runs again after a serialization failure, and commits once")
    func retriedTransaction() throws {
        let first = try connectToTestDatabase(), second = try connectToTestDatabase()
        let table = PostgreSQLTestServer.uniqueName("retry")
        try first.execute("CREATE TABLE \(table)(id int PRIMARY KEY, n int); INSERT INTO \(table) VALUES (1, 0)")
        defer { try? first.execute("DROP TABLE \(table)") }
        var attempts = 0
        try first.withRetriedTransaction(.serializable) {
            attempts += 1
            _ = try first.query("SELECT n FROM \(table)")
            if attempts == 1 { try second.execute("UPDATE \(table) SET n = n + 1", []) }
            try first.execute("UPDATE \(table) SET n = n + 10", [])
        }
        #expect(attempts == 2)
        #expect(try first.queryFirst("SELECT n FROM \(table)")?.int(0) == 11)
    }

    @Test("two transactions locking two rows in opposite orders: one is aborted as a deadlock")
    func deadlock() throws {
        let table = PostgreSQLTestServer.uniqueName("deadlock")
        let setup = try connectToTestDatabase()
        try setup.execute("CREATE TABLE \(table)(id int PRIMARY KEY, n int); INSERT INTO \(table) VALUES (1, 0), (2, 0)")
        defer { try? setup.execute("DROP TABLE \(table)") }
        let outcomes = try DeadlockRace(table: table).run()
        #expect(outcomes.count == 2)
        #expect(outcomes.filter { ($0 as? PostgreSQLError)?.isDeadlock == true }.count == 1, "\(outcomes)")
        #expect(outcomes.filter { $0 == nil }.count == 1, "the other one commits: \(outcomes)")
    }
}
