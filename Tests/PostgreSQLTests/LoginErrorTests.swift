import Foundation
import Testing
import TestSupport
@testable import PostgreSQL

@Suite("Login errors name the problem, never the password", .needsPostgreSQL)
struct LoginErrorTests {
    @Test("a wrong password given in key=value text or a URI: 28P01, the password nowhere in the message")
    func wrongPassword() throws {
        let wrong = "wrong-" + PostgreSQLTestServer.uniqueName("pw")
        let port = try #require(PostgreSQLTestServer.port)
        for text in [PostgreSQLTestServer.passwordRoleConninfo(password: wrong),
                     "postgresql://\(PostgreSQLTestServer.passwordRole):\(wrong)@127.0.0.1:\(port)/pkgbuild_test"] {
            let error = postgreSQLError { _ = try Connection(text) }
            #expect(error?.isInvalidPassword == true, "\(error?.message ?? "")")
            #expect(error?.message.contains("password authentication failed") == true)
            #expect(error?.message.contains("user=\(PostgreSQLTestServer.passwordRole)") == true, "names the login")
            #expect(error?.message.contains(wrong) == false, "\(error?.message ?? "")")
            #expect("\(String(describing: error))".contains(wrong) == false)
        }
    }

    @Test("a wrong password libpq found in a password file is not shown either")
    func wrongPasswordFromPassfile() throws {
        let directory = try TemporaryDirectory("pgpass")
        let wrong = "passfile-" + PostgreSQLTestServer.uniqueName("pw")
        let passfile = directory.path("pgpass")
        try "*:*:*:\(PostgreSQLTestServer.passwordRole):\(wrong)\n".write(toFile: passfile, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: passfile)
        let text = "\(PostgreSQLTestServer.superuser) user=\(PostgreSQLTestServer.passwordRole) passfile=\(passfile)"
        let error = postgreSQLError { _ = try Connection(text) }
        #expect(error?.isInvalidPassword == true, "\(error?.message ?? "")")
        #expect(error?.message.contains(wrong) == false, "\(error?.message ?? "")")

        let right = try #require(PostgreSQLTestServer.password)
        try "*:*:*:\(PostgreSQLTestServer.passwordRole):\(right)\n".write(toFile: passfile, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: passfile)
        let db = try Connection(text)
        #expect(try db.queryFirst("SELECT current_user")?.string(0) == PostgreSQLTestServer.passwordRole)
        #expect(!db.info.hasPassword, "found by libpq, not given")
    }

    @Test("no password where one is needed: refused as a password problem")
    func missingPassword() throws {
        let text = "\(PostgreSQLTestServer.superuser) user=\(PostgreSQLTestServer.passwordRole) passfile=/nonexistent"
        let error = postgreSQLError { _ = try Connection(text) }
        #expect(error?.isInvalidPassword == true, "\(error?.message ?? "")")
    }

    @Test("a port where no server listens: unreachable, naming host and port, not the password")
    func unreachable() throws {
        let port = PostgreSQLTestServer.closedPort()
        let secret = "unreachable-" + PostgreSQLTestServer.uniqueName("pw")
        let error = postgreSQLError { _ = try Connection("host=127.0.0.1 port=\(port) dbname=gis user=field password=\(secret)") }
        #expect(error?.isUnreachable == true, "\(error?.message ?? "")")
        #expect(error?.message.contains("port=\(port)") == true)
        #expect(error?.message.contains("Connection refused") == true, "\(error?.message ?? "")")
        #expect(error?.message.contains(secret) == false)
        let socket = postgreSQLError { _ = try Connection("host=/nonexistent/socket/dir dbname=gis user=field") }
        #expect(socket?.isUnreachable == true, "\(socket?.message ?? "")")
        #expect(socket?.message.contains("host=/nonexistent/socket/dir") == true)
    }

    @Test("a connection the server terminates in the middle of a statement is lost, not a refusal")
    func terminatedWhileRunning() throws {
        let victim = try connectToTestDatabase()
        let pid = Int(victim.backendPID)
        let kill = DispatchWorkItem {
            let waitUntilRunning = "SELECT count(*) FROM pg_stat_activity WHERE pid = \(pid) AND state = 'active'"
            for _ in 0..<100 where (try? PostgreSQLTestServer.psql(waitUntilRunning)) != "1" { usleep(20_000) }
            _ = try? PostgreSQLTestServer.psql("SELECT pg_terminate_backend(\(pid))")
        }
        DispatchQueue.global().async(execute: kill)
        let error = postgreSQLError { _ = try victim.query("SELECT pg_sleep(30)") }
        kill.wait()
        #expect(error?.isConnectionLost == true, "\(error?.message ?? "")")
    }

    @Test("a connection the server terminates is lost, not a statement's refusal")
    func terminated() throws {
        let victim = try connectToTestDatabase(), killer = try connectToTestDatabase()
        #expect(try killer.queryFirst("SELECT pg_terminate_backend($1)", [.int(Int(victim.backendPID))])?.bool(0) == true)
        let error = postgreSQLError { _ = try victim.query("SELECT 1") }
        #expect(error?.isConnectionLost == true, "\(error?.message ?? "")")
        #expect(error?.isRetryable == false)
    }

    @Test("a database that does not exist: refused with 3D000")
    func missingDatabase() throws {
        let error = postgreSQLError { _ = try Connection("\(PostgreSQLTestServer.superuser) dbname=no_such_database") }
        #expect(error?.kind == .loginRefused(sqlState: SQLState.invalidCatalogName), "\(error?.message ?? "")")
        #expect(error?.message.contains("no_such_database") == true)
    }
}
