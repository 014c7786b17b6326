import Foundation
import Testing
import SQLite
import Geometry
import TestSupport
@testable import Extract

/// The packed R-tree against SQLite's own: the same entries inserted through SQL into a
/// second R-tree must read back identically (values rounded as SQLite rounds them), answer
/// window queries identically, pass SQLite's `rtreecheck`, and stay editable through SQL.
@Suite struct RTreeLoaderTests {
    /// Entries with coordinates that 32-bit floats cannot hold exactly, both signs.
    static func entries(_ n: Int) -> [(Int64, Envelope)] {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> Double {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Double(state >> 11) / Double(1 << 53)
        }
        return (0..<n).map { i in
            let x = next() * 360 - 180, y = next() * 170 - 85
            let w = next() * 0.37, h = i % 5 == 0 ? 0 : next() * 0.29
            return (Int64(i * 3 + 1), Envelope(minX: x, minY: y, maxX: x + w, maxY: y + h))
        }
    }

    @Test(arguments: [0, 1, 50, 51, 52, 2601, 2602, 10_000])
    func matchesSQLiteInsertedTree(count: Int) throws {
        let dir = try TemporaryDirectory()
        let db = try Connection(path: dir.path("r.sqlite"), mode: .create)
        try db.execute("""
            CREATE VIRTUAL TABLE packed USING rtree(id, minx, maxx, miny, maxy);
            CREATE VIRTUAL TABLE inserted USING rtree(id, minx, maxx, miny, maxy);
            BEGIN;
            """)
        let loader = try RTreeLoader(connection: db, rtree: "packed")
        let insert = try db.prepare("INSERT INTO inserted VALUES (?, ?, ?, ?, ?)")
        for (id, e) in Self.entries(count) {
            try loader.add(id: id, e)
            try insert.bind([.integer(id), .real(e.minX), .real(e.maxX), .real(e.minY), .real(e.maxY)])
            while try insert.step() {}
            insert.reset()
        }
        try loader.finish()
        try db.execute("COMMIT")

        #expect(try db.scalar("SELECT rtreecheck('packed')")?.stringValue == "ok")
        #expect(try db.scalar("SELECT count(*) FROM packed")?.int64Value == Int64(count))
        let differ = "SELECT count(*) FROM (SELECT * FROM packed EXCEPT SELECT * FROM inserted)"
        #expect(try db.scalar(differ)?.int64Value == 0)
        #expect(try db.scalar(differ.replacingOccurrences(of: "packed EXCEPT SELECT * FROM inserted",
                                                            with: "inserted EXCEPT SELECT * FROM packed"))?.int64Value == 0)
        for window in [(-10.0, -5.0, 20.0, 15.0), (100.0, -80.0, 180.0, 0.0), (-180.0, -90.0, 180.0, 90.0)] {
            let query = "SELECT id FROM %@ WHERE minx <= \(window.2) AND maxx >= \(window.0) AND miny <= \(window.3) AND maxy >= \(window.1) ORDER BY id"
            let a = try db.query(query.replacingOccurrences(of: "%@", with: "packed"))
            let b = try db.query(query.replacingOccurrences(of: "%@", with: "inserted"))
            #expect(a == b)
        }
        // Still an R-tree SQLite can edit.
        try db.execute("""
            DELETE FROM packed WHERE id % 2 = 0;
            INSERT INTO packed VALUES (999999, 1.5, 2.5, 3.5, 4.5);
            UPDATE packed SET minx = minx - 1 WHERE id % 3 = 1;
            """)
        #expect(try db.scalar("SELECT rtreecheck('packed')")?.stringValue == "ok")
        #expect(try db.scalar("SELECT count(*) FROM packed WHERE id = 999999")?.int64Value == 1)
    }
}
