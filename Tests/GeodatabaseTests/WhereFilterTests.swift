import Foundation
import Testing
import SQLite
import TestSupport
@testable import Geodatabase

@Suite struct WhereFilterTests {
    func source() throws -> Connection {
        try Connection(path: TestData.url("demo/alaska_source.gpkg").path, mode: .readOnly)
    }

    @Test(arguments: [
        "unit_type = 'National Park'",
        "unit_code IN ('DENA', 'LACL') AND scalerank < 10",
        "name LIKE '%;%'",
        "fid IN (SELECT fid FROM parks WHERE unit_code = 'DENA')",
        "length(unit_name) > 5",
    ])
    func acceptsReadsOfTheLayersOwnTable(expression: String) throws {
        try WhereFilter(layer: "parks", expression: expression).check(on: try source(), table: "parks")
    }

    @Test(arguments: [
        ("1; DROP TABLE parks", "';'"),
        ("1) OR (1", "unbalanced"),
        ("unit_name = '\u{301}') OR (fid > 0 OR unit_name = '\u{301}'", "unbalanced"),
        ("1 -- comment", "comments"),
        ("fid IN (SELECT fid FROM airports)", "airports"),
        ("EXISTS (SELECT 1 FROM sqlite_master)", "sqlite_master"),
        ("load_extension('/tmp/x.so') IS NULL", "load_extension"),
        ("fid IN (SELECT fid FROM park_visitors)", "park_visitors"),
        ("'unterminated", "quote"),
        ("no_such_column = 1", "no such column"),
    ])
    func refusesEverythingElseNamingTheExpression(expression: String, reason: String) throws {
        let filter = WhereFilter(layer: "parks", expression: expression)
        let error = #expect(throws: GeodatabaseError.self) { try filter.check(on: try source(), table: "parks") }
        #expect(error?.kind == .filter)
        #expect(error?.message.contains(expression) == true, "\(error?.message ?? "")")
        #expect(error?.message.contains(reason) == true, "\(error?.message ?? "")")
    }

    @Test func refusesAttachAndPragmaThroughTheAuthorizer() throws {
        // Neither can appear in a single expression, so check that the authorizer alone
        // (without the lexical check) refuses a sub-select on a table function of pragmas.
        let filter = WhereFilter(layer: "parks", expression: "fid IN (SELECT cid FROM pragma_table_info('parks'))")
        #expect(throws: GeodatabaseError.self) { try filter.check(on: try source(), table: "parks") }
    }

    @Test func parsesLayerAndExpression() throws {
        let f = try WhereFilter(parsing: "parks: unit_code = 'DENA'")
        #expect(f.layer == "parks")
        #expect(f.expression == "unit_code = 'DENA'")
        #expect(throws: GeodatabaseError.self) { try WhereFilter(parsing: "no colon here") }
        #expect(throws: GeodatabaseError.self) { try WhereFilter(parsing: ":x = 1") }
    }
}
