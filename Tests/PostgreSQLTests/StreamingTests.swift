import Foundation
import Testing
import TestSupport
@testable import PostgreSQL

@Suite("Single-row streaming", .needsPostgreSQL)
struct StreamingTests {
    @Test("100,000 generated rows arrive one at a time, in order, all counted")
    func hundredThousandRows() throws {
        let db = try connectToTestDatabase()
        var sum = 0, expected = 1, inOrder = true
        let count = try db.forEachRow("SELECT i, 'row ' || i FROM generate_series(1, $1::int) AS i", [100_000]) { row in
            let value = try row.int(0)!
            inOrder = inOrder && value == expected && row.string(1) == "row \(value)"
            expected += 1
            sum += value
        }
        #expect(count == 100_000)
        #expect(inOrder)
        #expect(sum == 100_000 * 100_001 / 2)
    }

    // A set-returning function in the select list streams its rows; in FROM it would first
    // store all of them, and the cancel would come only after that.
    @Test("a throw from the callback cancels the statement; the connection goes on")
    func callbackThrows() throws {
        let db = try connectToTestDatabase()
        struct Enough: Error {}
        var seen = 0
        let start = Date()
        #expect(throws: Enough.self) {
            try db.forEachRow("SELECT generate_series(1, 100000000)") { _ in
                seen += 1
                if seen == 10 { throw Enough() }
            }
        }
        #expect(seen == 10)
        // Drained instead of cancelled, the 100 million rows would take minutes.
        #expect(Date().timeIntervalSince(start) < 10)
        #expect(try db.queryFirst("SELECT 42")?.int(0) == 42)
    }

    @Test("an error the server meets part way through is thrown after the rows before it")
    func errorMidStream() throws {
        let db = try connectToTestDatabase()
        var seen = 0
        let error = postgreSQLError {
            try db.forEachRow("SELECT 1 / (50001 - i) FROM generate_series(1, 100000) AS i") { _ in seen += 1 }
        }
        #expect(error?.sqlState == "22012", "division by zero: \(error?.message ?? "")")
        #expect(seen > 0 && seen <= 50_000)
        #expect(try db.queryFirst("SELECT 1")?.int(0) == 1)
    }

    @Test("memory stays flat while 1,000,000 rows of 200 bytes stream by")
    func flatMemory() throws {
        let db = try connectToTestDatabase()
        var residentAtStart = 0, residentAtEnd = 0, largestResult = 0
        let count = try db.forEachRow("SELECT i, repeat('x', 200) FROM (SELECT generate_series(1, 1000000) AS i) AS series") { row in
            let index = try row.int(0)!
            largestResult = max(largestResult, row.result.rowCount)
            if index == 50_000 { residentAtStart = ProcessMemory.residentKiB }
            if index == 1_000_000 { residentAtEnd = ProcessMemory.residentKiB }
        }
        #expect(count == 1_000_000)
        #expect(largestResult == 1, "libpq holds one row at a time")
        // Buffered, the rows take about 275 MB more; other tests run beside this one, so the
        // bound leaves room for them.
        #expect(residentAtEnd - residentAtStart < 150_000, "resident grew from \(residentAtStart) to \(residentAtEnd) KiB")
    }
}

/// The process's memory as Linux reports it in /proc/self/status.
enum ProcessMemory {
    static var residentKiB: Int { field("VmRSS:") }
    static var peakResidentKiB: Int { field("VmHWM:") }

    private static func field(_ name: String) -> Int {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix(name) }) else { return 0 }
        return Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") ?? 0
    }
}
