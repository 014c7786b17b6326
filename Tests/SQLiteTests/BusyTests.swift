import Dispatch
import Foundation
import Testing
import TestSupport
@testable import SQLite

@Suite("Two connections on one WAL file: readers go on, writers wait for the busy timeout")
struct BusyTests {
    private func makeWALFile(_ dir: TemporaryDirectory) throws -> String {
        let path = dir.path("shared.sqlite")
        let db = try Connection(path: path, journalMode: .wal)
        try db.execute("CREATE TABLE t(x); INSERT INTO t VALUES (1)")
        return path
    }

    @Test("a writer gives up with isBusy after its timeout while another holds the write lock")
    func busyAfterTimeout() throws {
        let dir = try TemporaryDirectory()
        let path = try makeWALFile(dir)
        let holder = try Connection(path: path, mode: .readWrite, journalMode: .wal)
        let waiter = try Connection(path: path, mode: .readWrite, busyTimeout: 0.3, journalMode: .wal)
        try holder.withTransaction(.immediate) {
            try holder.execute("INSERT INTO t VALUES (2)")
            // WAL: a reader is not blocked by the writer and sees the last commit.
            #expect(try waiter.scalar("SELECT count(*) FROM t") == 1)
            let start = Date()
            let error = try #require(throws: SQLiteError.self) { try waiter.execute("INSERT INTO t VALUES (3)") }
            let waited = Date().timeIntervalSince(start)
            #expect(error.isBusy)
            #expect(!error.isConstraintViolation)
            #expect(error.description == "\(path) is held by another process: gave up after waiting 0.3 s")
            #expect(error.sql == "INSERT INTO t VALUES (3)")
            #expect(waited >= 0.25, "gave up after \(waited) s")
        }
        #expect(try waiter.scalar("SELECT count(*) FROM t") == 2)
    }

    @Test("a writer within its timeout gets the lock once the other commits")
    func waitsThenSucceeds() throws {
        let dir = try TemporaryDirectory()
        let path = try makeWALFile(dir)
        let locked = DispatchSemaphore(value: 0)
        let done = DispatchSemaphore(value: 0)
        // The holder lives on its own thread with its own connection: one owner each.
        let holderResult = ThreadResult()
        Thread.detachNewThread {
            do {
                let holder = try Connection(path: path, mode: .readWrite)
                try holder.withTransaction(.immediate) {
                    try holder.execute("INSERT INTO t VALUES (2)")
                    locked.signal()
                    Thread.sleep(forTimeInterval: 0.3)
                }
            } catch {
                holderResult.error = "\(error)"
                locked.signal()
            }
            done.signal()
        }
        locked.wait()
        let waiter = try Connection(path: path, mode: .readWrite, busyTimeout: 10)
        let start = Date()
        try waiter.execute("INSERT INTO t VALUES (3)")
        let waited = Date().timeIntervalSince(start)
        done.wait()
        #expect(holderResult.error == nil)
        #expect(waited >= 0.1 && waited < 5, "waited \(waited) s")
        #expect(try waiter.query("SELECT x FROM t ORDER BY rowid") == [[1], [2], [3]])
    }

    @Test("LockWait: its timeout replaces a connection's own, and the wait is told once, naming the file")
    func lockWaitPolicy() throws {
        let dir = try TemporaryDirectory()
        let path = try makeWALFile(dir)
        let holder = try Connection(path: path, mode: .readWrite, journalMode: .wal)
        let heard = HeardWaits()
        let policy = LockWait(timeout: 0.8, onWait: { path, limit in heard.append("\(path) \(limit)") })
        let waiter = try LockWait.$current.withValue(policy) { try Connection(path: path, mode: .readWrite, busyTimeout: 30) }
        // A connection that does not wait keeps not waiting.
        let impatient = try LockWait.$current.withValue(policy) { try Connection(path: path, mode: .readWrite) }
        #expect(waiter.busyTimeout == 0.8 && impatient.busyTimeout == 0)
        try holder.withTransaction(.immediate) {
            try holder.execute("INSERT INTO t VALUES (2)")
            let start = Date()
            #expect(throws: SQLiteError.self) { try waiter.execute("INSERT INTO t VALUES (3)") }
            #expect(throws: SQLiteError.self) { try waiter.execute("INSERT INTO t VALUES (4)") }
            let waited = Date().timeIntervalSince(start)
            #expect(waited >= 1.5 && waited < 10, "waited \(waited) s for two statements")
        }
        #expect(heard.lines == ["\(path) 0.8"])
        try waiter.execute("INSERT INTO t VALUES (5)")
    }
}

private final class HeardWaits: @unchecked Sendable {
    private let lock = NSLock()
    private var heard: [String] = []
    func append(_ line: String) { lock.withLock { heard.append(line) } }
    var lines: [String] { lock.withLock { heard } }
}

private final class ThreadResult: @unchecked Sendable {
    var error: String?
}
