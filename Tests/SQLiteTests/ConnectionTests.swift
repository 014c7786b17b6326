import Foundation
import Testing
import TestSupport
@testable import SQLite

@Suite("Connection: open modes, journal mode, execute")
struct ConnectionTests {
    @Test("create makes the file; readWrite and readOnly refuse a missing one, naming it")
    func openModes() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("new.sqlite")
        for mode in [Connection.OpenMode.readOnly, .readWrite] {
            let error = try #require(throws: SQLiteError.self) { try Connection(path: path, mode: mode) }
            #expect(error.code == 14)  // SQLITE_CANTOPEN
            #expect(error.description == "\(path): no such file")
        }
        let db = try Connection(path: path, mode: .create)
        try db.execute("CREATE TABLE t(x)")
        #expect(FileManager.default.fileExists(atPath: path))
        #expect(!db.isReadOnly)
    }

    @Test("a directory, a file that is not a database and a missing directory are refused at open, in words")
    func fileProblemsAtOpen() throws {
        let dir = try TemporaryDirectory()
        let folder = dir.path("folder.gpkg"), junk = dir.path("junk.gpkg")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        try Data("not a database".utf8).write(to: URL(fileURLWithPath: junk))
        for mode in [Connection.OpenMode.readOnly, .readWrite] {
            let onFolder = try #require(throws: SQLiteError.self) { try Connection(path: folder, mode: mode) }
            #expect(onFolder.isFileProblem)
            #expect(onFolder.description == "\(folder): it is a directory, not a database file")
            let onJunk = try #require(throws: SQLiteError.self) { try Connection(path: junk, mode: mode) }
            #expect(onJunk.isNotADatabase && onJunk.isFileProblem)
            #expect(onJunk.description == "\(junk): it is not an SQLite database")
        }
        let onFolder = try #require(throws: SQLiteError.self) { try Connection(path: folder, mode: .create) }
        #expect(onFolder.description == "\(folder): it is a directory, not a database file")
        let nowhere = dir.path("missing/new.gpkg")
        let missing = try #require(throws: SQLiteError.self) { try Connection(path: nowhere, mode: .create) }
        #expect(missing.description == "\(nowhere): directory \(dir.path("missing")) does not exist")
        // An empty file is an empty database to SQLite, as before.
        try Data().write(to: URL(fileURLWithPath: dir.path("empty.sqlite")))
        #expect(try Connection(path: dir.path("empty.sqlite"), mode: .readOnly).scalar("SELECT count(*) FROM sqlite_master") == .integer(0))
    }

    @Test("a read-only connection reads and refuses every write")
    func readOnlyRefusesWrites() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("ro.sqlite")
        do {
            let db = try Connection(path: path)
            try db.execute("CREATE TABLE t(x); INSERT INTO t VALUES (1)")
        }
        let ro = try Connection(path: path, mode: .readOnly)
        #expect(ro.isReadOnly)
        #expect(try ro.scalar("SELECT x FROM t") == .integer(1))
        for sql in ["INSERT INTO t VALUES (2)", "UPDATE t SET x = 3", "DELETE FROM t", "CREATE TABLE u(y)"] {
            let error = try #require(throws: SQLiteError.self) { try ro.execute(sql) }
            #expect(error.isReadOnly, "\(sql): \(error)")
            #expect(error.sql == sql)
        }
        #expect(try ro.scalar("SELECT count(*) FROM t") == .integer(1))
    }

    @Test("a URI opens with its query parameters")
    func uri() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("u.sqlite")
        try Connection(path: path).execute("CREATE TABLE t(x)")
        let db = try Connection(path: "file:\(path)?mode=ro", mode: .readWrite, uri: true)
        #expect(db.isReadOnly)
    }

    @Test("a file that is not a database is refused at open, not by its first statement, naming the path")
    func notADatabase() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("junk.gpkg")
        try Data(repeating: 0x41, count: 4096).write(to: URL(fileURLWithPath: path))
        // SQLite opens lazily; the open reads page 1 so that no statement's SQL is in the error.
        let error = try #require(throws: SQLiteError.self) { try Connection(path: path, mode: .readOnly) }
        #expect(error.isNotADatabase)
        #expect(error.sql == nil && error.path == path)
        #expect(error.description == "\(path): it is not an SQLite database")
    }

    @Test("WAL is set when chosen and seen by the sqlite3 shell")
    func walJournalMode() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("wal.sqlite")
        let db = try Connection(path: path, journalMode: .wal)
        try db.execute("CREATE TABLE t(x); INSERT INTO t VALUES (1)")
        #expect(try db.journalMode == .wal)
        let shell = try runProcess("sqlite3", [path, "PRAGMA journal_mode"])
        #expect(shell.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "wal")
    }

    @Test("an in-memory database cannot enter WAL, and says so")
    func walRefusedInMemory() throws {
        let error = try #require(throws: SQLiteError.self) { try Connection(path: ":memory:", journalMode: .wal) }
        #expect(error.message == "journal mode stayed memory, not wal")
    }

    @Test("execute runs a script and names the statement that failed")
    func executeScript() throws {
        let db = try Connection(path: ":memory:")
        let error = try #require(throws: SQLiteError.self) {
            try db.execute("""
                CREATE TABLE t(x NOT NULL);
                INSERT INTO t VALUES (1); -- a comment
                INSERT INTO t VALUES (NULL);
                INSERT INTO t VALUES (3);
                """)
        }
        // The statement's own text, from after the previous semicolon.
        #expect(error.sql == "-- a comment\nINSERT INTO t VALUES (NULL);")
        #expect(try db.query("SELECT x FROM t") == [[1]])
        // Only whitespace and comments: nothing to run, no error.
        try db.execute("  -- nothing\n ")
    }

    @Test("lastInsertRowID, changes and totalChanges follow SQLite")
    func rowidAndChanges() throws {
        let db = try Connection(path: ":memory:")
        try db.execute("CREATE TABLE t(id INTEGER PRIMARY KEY, x)")
        try db.execute("INSERT INTO t(id, x) VALUES (?, ?)", [41, "a"])
        #expect(db.lastInsertRowID == 41)
        try db.execute("INSERT INTO t(x) VALUES ('b'), ('c')")
        #expect(db.lastInsertRowID == 43)
        #expect(db.changes == 2)
        try db.execute("UPDATE t SET x = 'z' WHERE id > 41")
        #expect(db.changes == 2)
        #expect(db.totalChanges == 5)
    }
}
