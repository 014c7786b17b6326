import Foundation
import Testing
import TestSupport
@testable import SQLite

@Suite("Authorizer: user SQL that may only read one table")
struct AuthorizerTests {
    private func makeDatabase() throws -> Connection {
        let db = try Connection(path: ":memory:")
        try db.execute("""
            CREATE TABLE parks(fid INTEGER PRIMARY KEY, name TEXT, area REAL);
            CREATE TABLE secrets(token TEXT);
            INSERT INTO parks(name, area) VALUES ('Denali', 24585), ('Katmai', 16564), ('Sitka', 0.5);
            INSERT INTO secrets VALUES ('hunter2');
            """)
        return db
    }

    /// The `--where` policy: SELECTs, reads of `parks`, and a few pure functions.
    private static func readsOfParksOnly(_ request: AuthorizerRequest) -> AuthorizerDecision {
        switch request.action {
        case .select: .allow
        case .read(let table, _) where table == "parks": .allow
        case .function(let name) where ["lower", "upper", "length", "abs", "like"].contains(name.lowercased()): .allow
        default: .deny
        }
    }

    @Test("a filter reading the one table runs")
    func allowedFilter() throws {
        let db = try makeDatabase()
        db.setAuthorizer(Self.readsOfParksOnly)
        let rows = try db.query("SELECT fid FROM parks WHERE (lower(name) LIKE 'k%' OR area < 1) ORDER BY fid")
        #expect(rows == [[2], [3]])
    }

    @Test("writes, other tables, pragmas, attach and unknown functions are refused at prepare", arguments: [
        "SELECT fid FROM parks WHERE (1) ; DELETE FROM parks",
        "DELETE FROM parks",
        "UPDATE parks SET name = 'x'",
        "INSERT INTO parks(name) VALUES ('x')",
        "SELECT fid FROM parks WHERE name IN (SELECT token FROM secrets)",
        "SELECT fid FROM parks WHERE load_extension('x') IS NULL",
        "SELECT fid FROM parks WHERE randomblob(4) IS NOT NULL",
        "PRAGMA writable_schema = 1",
        "ATTACH DATABASE 'other.db' AS other",
        "DROP TABLE parks",
    ])
    func refused(sql: String) throws {
        let db = try makeDatabase()
        db.setAuthorizer(Self.readsOfParksOnly)
        let error = try #require(throws: SQLiteError.self) {
            let statement = try db.prepare(sql)
            _ = try statement.step()
        }
        // SQLITE_AUTH (23) for tables and actions; SQLite reports a refused function as a plain
        // error (1); the injected second statement is refused as a second statement (misuse, 21).
        #expect(error.code == 23 || error.message.hasPrefix("not authorized to use function") || error.code == 21, "\(error)")
        db.setAuthorizer(nil)
        #expect(try db.scalar("SELECT count(*) FROM parks") == 3)
        #expect(try db.scalar("SELECT count(*) FROM secrets") == 1)
    }

    @Test("the callback sees each access: table, column, function, trigger")
    func requestsAreReported() throws {
        let db = try makeDatabase()
        try db.execute("CREATE TRIGGER parks_au AFTER UPDATE ON parks BEGIN INSERT INTO secrets VALUES (NEW.name); END")
        final class Log { var requests: [AuthorizerRequest] = [] }
        let log = Log()
        db.setAuthorizer { request in
            log.requests.append(request)
            return .allow
        }
        _ = try db.prepare("UPDATE parks SET name = upper(name) WHERE fid = 1")
        let actions = log.requests.map(\.action)
        #expect(actions.contains(.update(table: "parks", column: "name")))
        #expect(actions.contains(.read(table: "parks", column: "name")))
        #expect(actions.contains(.function(name: "upper")))
        #expect(log.requests.contains { $0.action == .insert(table: "secrets") && $0.accessor == "parks_au" })
        #expect(log.requests.allSatisfy { $0.database == nil || $0.database == "main" })
    }

    @Test("ignore reads a column as NULL")
    func ignoreHidesColumn() throws {
        let db = try makeDatabase()
        db.setAuthorizer { request in
            if case .read(_, "area") = request.action { return .ignore }
            return .allow
        }
        #expect(try db.query("SELECT name, area FROM parks WHERE fid = 1") == [["Denali", nil]])
    }

    @Test("a name that is not UTF-8 is refused: decoded, two tables would share one name")
    func nonUTF8NamesRefused() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("latin1.db")
        // Tables named with Latin-1 bytes (F1, F2: octal 361, 362; sqlite3 takes the bytes as they
        // are); a view reads the second. Both names decode to "Do\u{FFFD}a".
        let script = "CREATE TABLE \"Do\\361a\"(x); CREATE TABLE \"Do\\362a\"(secret); "
            + "INSERT INTO \"Do\\362a\" VALUES (42); CREATE VIEW peek AS SELECT secret FROM \"Do\\362a\";"
        let made = try runProcess("/bin/sh", ["-c", "printf '\(script)' | sqlite3 \"$0\"", path])
        #expect(made.status == 0, "\(made.stderr)")
        let db = try Connection(path: path)
        let own = try #require(try db.scalar("SELECT name FROM sqlite_master WHERE hex(name) = '446FF161'")?.stringValue)
        db.setAuthorizer { request in
            switch request.action {
            case .select: .allow
            case .read(let table, _) where table == own || table == "peek": .allow
            default: .deny
            }
        }
        let error = try #require(throws: SQLiteError.self) { _ = try db.prepare("SELECT secret FROM peek") }
        #expect(error.code == 23, "\(error)")
    }
}
