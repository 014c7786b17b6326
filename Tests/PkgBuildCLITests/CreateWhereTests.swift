import Foundation
import Testing
import PkgBuildCLI
import TestSupport

/// `create --where` and `estimate --where` read the filter in the grammar (`--help`,
/// README "--where filters") and refuse anything else naming the token; what they keep is
/// what GDAL keeps with the same expression.
@Suite struct CreateWhereTests {
    /// Wider than the demo source: every row meets the area, so only the filter chooses.
    static let everywhere = "--area=-180,-89,180,89"

    func packages(in dir: TemporaryDirectory) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: dir.url.path).filter { $0.contains(".pkg") }
    }

    @Test(arguments: [
        ("parks:length(unit_name) > 3", "unexpected 'length(' at 1 (function calls are not allowed)"),
        ("parks:fid IN (SELECT fid FROM parks)", "unexpected 'SELECT' at 9"),
        ("parks:unit_code = 'DENA'; DELETE FROM parks", "unexpected ';' at 19"),
        ("parks:unit_code = 'DENA' -- or everything", "unexpected '--' at 20 (comments are not allowed)"),
        ("parks:nosuch = 1", "unknown column 'nosuch' at 1"),
        ("parks:unit_code = 'DENA' OR", "unexpected end of the expression at 22"),
        ("parks:unit_code REGEXP 'D.*'", "unexpected 'REGEXP' at 11"),
    ])
    func refusesAFilterOutsideTheGrammarNamingTheTokenWritingNothing(filter: String, message: String) throws {
        let dir = try TemporaryDirectory()
        let source = try dir.copy(testdata: "demo/alaska_source.gpkg")
        let before = try Data(contentsOf: URL(fileURLWithPath: source))
        for command in [["create", "-o", dir.path("a.pkg")], ["estimate"]] {
            let r = CLI.run([command[0], Self.everywhere, "--features", source, "--where", filter] + command.dropFirst())
            #expect(r.exitCode == 1, "\(command[0]) \(filter): \(r.stderr)")
            #expect(r.stderr.contains("--where '\(filter)' refused: \(message)"), "\(r.stderr)")
        }
        #expect(try packages(in: dir).isEmpty)
        #expect(try Data(contentsOf: URL(fileURLWithPath: source)) == before)
        let json = CLI.run(["create", Self.everywhere, "--features", source, "--where", filter, "-o", dir.path("a.pkg"), "--json"])
        #expect(json.exitCode == 1 && json.stderr.contains("\"kind\":\"where\""), "\(json.stderr)")
    }

    /// The rows `ogr2ogr -where` keeps (SQLite evaluating the text, as GDAL's GeoPackage
    /// driver hands it over) and the rows OGR's own SQL engine keeps are the rows the package
    /// holds.
    @Test(arguments: [
        ("parks", "unit_type IN ('National Preserve', 'National Park') OR NOT scalerank BETWEEN 3 AND 3"),
        ("parks", "name LIKE '%a%' AND NOT name LIKE 'K%' AND fid >= 42 AND note IS NULL"),
        ("airports", "type <> 'major' AND NOT (name LIKE 'B%' OR iata_code IN ('SIT', 'OME')) AND fid != 3"),
        ("airports", "\"NAME\" = 'Fairbanks Int''l' OR fid BETWEEN -1 AND 2.5 OR scalerank > 7 AND gps_code IS NOT NULL"),
    ])
    func keepsTheRowsGDALKeepsWithTheSameExpression(layer: String, expression: String) throws {
        let dir = try TemporaryDirectory()
        let source = try dir.copy(testdata: "demo/alaska_source.gpkg")
        let output = dir.path("f.pkg")
        let r = CLI.run(["create", Self.everywhere, "--features", source, "--layer", layer, "--no-related", "--no-register",
                         "--where", "\(layer):\(expression)", "-o", output])
        #expect(r.exitCode == 0, "\(r.stderr)")
        let ours = try globalIDs(output + "/data.gpkg", layer)

        let whereCopy = dir.path("where.gpkg")
        let viaWhere = try runProcess("ogr2ogr", ["-f", "GPKG", whereCopy, source, layer, "-where", expression])
        #expect(viaWhere.status == 0, "\(viaWhere.stderr)")
        let ogrSQLCopy = dir.path("ogrsql.gpkg")
        let viaOGRSQL = try runProcess("ogr2ogr", ["-f", "GPKG", ogrSQLCopy, source, "-dialect", "OGRSQL", "-nln", layer,
                                                   "-sql", "SELECT * FROM \(layer) WHERE \(expression)"])
        #expect(viaOGRSQL.status == 0, "\(viaOGRSQL.stderr)")
        let gdal = try globalIDs(whereCopy, layer)
        let all = try globalIDs(source, layer)
        #expect(!gdal.isEmpty && gdal.count < all.count, "the expression should choose: \(gdal)")
        #expect(ours == gdal, "\(expression)")
        let ogr = try globalIDs(ogrSQLCopy, layer)
        #expect(ours == ogr, "\(expression)")
    }

    func globalIDs(_ path: String, _ layer: String) throws -> [String] {
        let r = try runProcess("sqlite3", [path, "SELECT globalid FROM \"\(layer)\" ORDER BY globalid"])
        return r.stdout.split(separator: "\n").map(String.init)
    }
}

extension CreateWhereTests {
    /// Both commands' help states the grammar, and its examples are what the commands take.
    @Test func helpStatesTheGrammarAndItsExamplesWork() throws {
        for command in ["create", "estimate"] {
            let help = CLI.run([command, "--help"]).stdout
            for words in ["[NOT] IN (v, ...)", "[NOT] BETWEEN a AND b", "[NOT] LIKE", "IS [NOT] NULL", "NOT, AND, OR",
                          "('O''Brien')", "(42, -1.5, 1e3)", "(\"unit type\")", "naming it"] {
                #expect(help.replacingOccurrences(of: "\n", with: " ").contains(words), "\(command) --help: \(words)")
            }
        }
        let dir = try TemporaryDirectory()
        let source = try dir.copy(testdata: "demo/alaska_source.gpkg")
        let expression = "parks:NOT (unit_name IN ('O''Brien', 'x') OR scalerank BETWEEN -1.5 AND 1e3) AND \"unit_code\" LIKE 'D%'"
            + " OR note IS NOT NULL OR fid <> 42"
        let r = CLI.run(["estimate", Self.everywhere, "--features", source, "--where", expression])
        #expect(r.exitCode == 0, "\(r.stderr)")
    }
}
