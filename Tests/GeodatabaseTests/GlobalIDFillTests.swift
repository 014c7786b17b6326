import Foundation
import Geodatabase
import SQLite
import TestSupport
import Testing

/// Filling the global ids of a large table happens in slices, each reported, so that a person
/// enabling a million-row table sees it advance; sparse and negative keys are all reached.
@Suite struct GlobalIDFillTests {
    @Test func largeTablesAreFilledSliceBySliceAndEveryRowGetsAnID() throws {
        let directory = try TemporaryDirectory()
        let path = try directory.copy(testdata: "ne_parks.gpkg")
        let created = try pythonSQLite(path, """
            CREATE TABLE visits (id INTEGER PRIMARY KEY, note TEXT);
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 45000)
            INSERT INTO visits SELECT CASE WHEN i % 3 = 0 THEN -i * 1000003 ELSE i * 7919 END, 'v' || i FROM n;
            INSERT INTO visits VALUES (-9223372036854775808, 'the smallest key');
            INSERT INTO gpkg_contents (table_name, data_type, identifier) VALUES ('visits', 'attributes', 'visits');
            """)
        try #require(created.status == 0, "\(created.stderr)")
        let source = SourceGeodatabase(connection: try openForEditing(path))
        let calls = Calls()
        _ = try source.enable(.init(tables: ["visits"]), progress: { calls.append("\($0) \($1)/\($2)") })
        #expect(calls.all == ["visits 0/45001", "visits 20000/45001", "visits 40000/45001", "visits 45001/45001",
                              "visits 45001/45001"])
        #expect(try source.connection.integer("SELECT count(DISTINCT globalid) FROM visits WHERE globalid IS NOT NULL") == 45001)
        // Enabling again fills nothing, and says nothing.
        let again = Calls()
        _ = try source.enable(.init(tables: ["visits"]), progress: { again.append("\($0) \($1)/\($2)") })
        #expect(again.all.isEmpty)
    }
}

/// The progress calls heard, in order.
private final class Calls {
    var all: [String] = []
    func append(_ call: String) { all.append(call) }
}
