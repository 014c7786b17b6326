import Foundation
import Testing
import SQLite
import TestSupport
@testable import Extract

/// A package table is declared from the source's neutral schema, not copied as SQL text: what
/// SQLite itself reports of the table (its pragmas) and how it enforces the rules must be the
/// source's.
@Suite struct PackageTableSchemaTests {
    init() { registerSourceDrivers() }

    static let table = """
        CREATE TABLE inspections (fid INTEGER PRIMARY KEY AUTOINCREMENT, \
        code TEXT(12) NOT NULL UNIQUE COLLATE NOCASE, \
        score INTEGER DEFAULT 3 CHECK (score BETWEEN 0 AND 5), \
        note TEXT DEFAULT 'none, CHECK (yet)', \
        seen DATETIME DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')), \
        weight REAL DEFAULT -1.5, a INT, b INT, \
        parent INTEGER REFERENCES inspections (fid) ON DELETE CASCADE, \
        UNIQUE (a, b), CONSTRAINT positive CHECK (a >= 0 AND "b" >= (0)))
        """

    /// What SQLite reports of a table: columns, UNIQUE constraints with their columns,
    /// foreign keys.
    func describe(_ path: String, _ table: String) throws -> [String] {
        let db = try Connection(path: path, mode: .readOnly)
        let columns = try db.query("SELECT name, type, \"notnull\", dflt_value, pk FROM pragma_table_info(?)", [.text(table)])
            .map { row in row.map { "\($0)" }.joined(separator: "|") }
        let unique = try db.query("""
            SELECT group_concat(i.name, ','), max(x.coll) FROM pragma_index_list(?) l, pragma_index_info(l.name) i,
                pragma_index_xinfo(l.name) x WHERE l.origin = 'u' AND x.cid = i.cid GROUP BY l.name ORDER BY l.seq
            """, [.text(table)]).map { "unique \($0[0]) \($0[1])" }
        let keys = try db.query("SELECT \"table\", \"from\", \"to\", on_update, on_delete FROM pragma_foreign_key_list(?)",
                                [.text(table)]).map { row in "fk " + row.map { "\($0)" }.joined(separator: "|") }
        return columns + unique + keys
    }

    @Test func aTableKeepsItsTypesKeysDefaultsChecksAndCollations() throws {
        let dir = try TemporaryDirectory()
        let source = try dir.copy(testdata: "naturalearth.gpkg")
        for statement in [Self.table,
                          "INSERT INTO gpkg_contents (table_name, data_type, identifier) VALUES ('inspections', 'attributes', 'inspections')",
                          "INSERT INTO inspections (code, score, a, b) VALUES ('abc', 4, 1, 2)",
                          "INSERT INTO inspections (code, a, b, parent) VALUES ('def', 1, 3, 1)"] {
            let made = try pythonSQLite(source, statement)
            #expect(made.status == 0, "\(made.stderr)")
        }
        let output = dir.path("a.pkg")
        _ = try Extractor.create(ExtractRequest(area: "-10,-10,10,10", source: source, layers: ["inspections"],
                                                register: false, output: output))
        let data = output + "/data.gpkg"
        #expect(try describe(data, "inspections") == describe(source, "inspections"))
        let described = try describe(data, "inspections")
        #expect(described.contains("unique 'a,b' 'BINARY'") && described.contains("unique 'code' 'NOCASE'"), "\(described)")
        #expect(described.contains("fk 'inspections'|'parent'|'fid'|'NO ACTION'|'CASCADE'"), "\(described)")

        // The rules hold in the package as in the source: CHECKs, UNIQUE with its collation,
        // NOT NULL, the key numbered without reuse, and the defaults.
        for refused in ["INSERT INTO inspections (code, score) VALUES ('x', 9)",
                        "INSERT INTO inspections (code, a, b) VALUES ('y', -1, 0)",
                        "INSERT INTO inspections (code) VALUES ('ABC')",
                        "INSERT INTO inspections (code, a, b) VALUES ('z', 1, 2)",
                        "INSERT INTO inspections (score) VALUES (1)"] {
            #expect(try pythonSQLite(data, refused).status != 0, "\(refused)")
        }
        let accepted = try pythonSQLite(data, "INSERT INTO inspections (code) VALUES ('new')")
        #expect(accepted.status == 0, "\(accepted.stderr)")
        let db = try Connection(path: data, mode: .readOnly)
        let row = try #require(try db.query("SELECT score, note, weight, seen IS NOT NULL, fid FROM inspections WHERE code = 'NEW'").first)
        #expect(row == [.integer(3), .text("none, CHECK (yet)"), .real(-1.5), .integer(1), .integer(3)])
        #expect(try db.scalar("SELECT seq FROM sqlite_sequence WHERE name = 'inspections'") == .integer(3))
    }
}
