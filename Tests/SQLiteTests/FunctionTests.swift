import Foundation
import Testing
import TestSupport
@testable import SQLite

private struct NotANumber: Error, CustomStringConvertible {
    var text: String
    var description: String { "not a number: \(text)" }
}

/// Counts its releases, to see that SQLite's destructor frees a function's closure.
private final class Tracker: @unchecked Sendable {
    var calls = 0
}

@Suite("Custom SQL functions through userdata")
struct FunctionTests {
    @Test("a scalar function gets its arguments as SQLiteValues and returns any storage class")
    func scalarFunction() throws {
        let db = try Connection(path: ":memory:")
        try db.createFunction("describe") { args in
            .text(args.map { "\($0.storageClass):\($0)" }.joined(separator: ","))
        }
        try db.createFunction("half", argumentCount: 1) { args in
            guard let number = args[0].doubleValue else { return .null }
            return .real(number / 2)
        }
        try db.createFunction("reversed_bytes", argumentCount: 1) { args in
            .blob(Array((args[0].blobValue ?? []).reversed()))
        }
        #expect(try db.scalar("SELECT describe(1, 2.5, 'a''b', x'00ff', NULL)") ==
            "integer:1,real:2.5,text:'a''b',blob:X'00FF',null:NULL")
        #expect(try db.scalar("SELECT half(?)", [7]) == .real(3.5))
        #expect(try db.scalar("SELECT half('x')") == .null)
        #expect(try db.scalar("SELECT hex(reversed_bytes(x'010203'))") == "030201")
        #expect(try db.scalar("SELECT typeof(reversed_bytes(x''))") == "blob")
        // The argument count is part of the function's identity.
        let arity = try #require(throws: SQLiteError.self) { try db.scalar("SELECT half(1, 2)") }
        #expect(arity.message == "wrong number of arguments to function half()")
    }

    @Test("a thrown error fails the statement with its description and the SQL")
    func errorsBecomeResultErrors() throws {
        let db = try Connection(path: ":memory:")
        try db.createFunction("to_number", argumentCount: 1) { args in
            let text = args[0].stringValue ?? ""
            guard let number = Double(text) else { throw NotANumber(text: text) }
            return .real(number)
        }
        try db.createFunction("busy_now", argumentCount: 0) { _ in
            throw SQLiteError(extendedCode: 5, message: "pretend busy")
        }
        #expect(try db.scalar("SELECT to_number('2.5')") == .real(2.5))
        let error = try #require(throws: SQLiteError.self) { try db.scalar("SELECT to_number('abc')") }
        #expect(error.description == "SQLite error 1: to_number(): not a number: abc - while executing \"SELECT to_number('abc')\"")
        let busy = try #require(throws: SQLiteError.self) { try db.scalar("SELECT busy_now()") }
        #expect(busy.isBusy)
        #expect(busy.message == "pretend busy")
    }

    @Test("only deterministic functions may appear in an index expression")
    func deterministicFlag() throws {
        let db = try Connection(path: ":memory:")
        try db.execute("CREATE TABLE t(x)")
        try db.createFunction("twice_det", argumentCount: 1, deterministic: true) { .integer(($0[0].int64Value ?? 0) * 2) }
        try db.createFunction("twice_nondet", argumentCount: 1, deterministic: false) { .integer(($0[0].int64Value ?? 0) * 2) }
        try db.execute("CREATE INDEX t_det ON t(twice_det(x))")
        let error = try #require(throws: SQLiteError.self) { try db.execute("CREATE INDEX t_nondet ON t(twice_nondet(x))") }
        #expect(error.message == "non-deterministic functions prohibited in index expressions")
    }

    @Test("functions run from triggers; replacing one frees the old Swift closure")
    func triggersAndReplacement() throws {
        let db = try Connection(path: ":memory:")
        weak var weakFirst: Tracker?
        do {
            let first = Tracker()
            weakFirst = first
            try db.createFunction("count_call", argumentCount: 1) { [first] args in
                first.calls += 1
                return args[0]
            }
            try db.execute("""
                CREATE TABLE t(x); CREATE TABLE log(x);
                CREATE TRIGGER t_ai AFTER INSERT ON t BEGIN INSERT INTO log VALUES (count_call(NEW.x)); END;
                INSERT INTO t VALUES (1), (2), (3);
                """)
            #expect(try db.query("SELECT x FROM log") == [[1], [2], [3]])
            #expect(first.calls == 3)
        }
        // SQLite's retained user data keeps the closure alive...
        #expect(weakFirst != nil)
        try db.createFunction("count_call", argumentCount: 1) { args in .integer((args[0].int64Value ?? 0) * 10) }
        // ...until the function is replaced.
        #expect(weakFirst == nil)
        try db.execute("INSERT INTO t VALUES (4)")
        #expect(try db.scalar("SELECT max(x) FROM log") == 40)
        try db.removeFunction("count_call", argumentCount: 1)
        let error = try #require(throws: SQLiteError.self) { try db.execute("INSERT INTO t VALUES (5)") }
        #expect(error.message == "no such function: count_call")
    }

    @Test("closing the connection runs the destructor of every function")
    func closeReleasesFunctions() throws {
        weak var weakTracker: Tracker?
        do {
            let tracker = Tracker()
            weakTracker = tracker
            let db = try Connection(path: ":memory:")
            try db.createFunction("f", argumentCount: 0) { [tracker] _ in .integer(Int64(tracker.calls)) }
            #expect(try db.scalar("SELECT f()") == 0)
        }
        #expect(weakTracker == nil)
    }
}

