@testable import GeoPackageSource
import Testing

/// What a `CREATE TABLE` statement says that SQLite's pragmas do not: CHECKs, collations,
/// AUTOINCREMENT, read from its top-level definitions only.
@Suite struct CreateTableConstraintsTests {
    @Test func checksCollationsAndAutoincrementAreFound() {
        let found = CreateTableSQL.constraints(in: """
            CREATE TABLE "t" ( "fid" INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL, [Name] TEXT COLLATE "NOCASE" \
            CHECK (length("Name") > (1)), n INT CHECK(n IN (1, 2)), CONSTRAINT c CHECK (n <> 3), CHECK ("fid" > 0))
            """)
        #expect(found.checks == ["length(\"Name\") > (1)", "n IN (1, 2)", "n <> 3", "\"fid\" > 0"])
        #expect(found.collations == ["Name": "NOCASE"])
        #expect(found.autoincrement)
    }

    @Test func wordsInsideLiteralsQuotedNamesAndCommentsAreNotConstraints() {
        let found = CreateTableSQL.constraints(in: """
            CREATE TABLE t (fid INTEGER PRIMARY KEY, -- CHECK (x) AUTOINCREMENT
            note TEXT DEFAULT 'CHECK (1), COLLATE x', "check" INT, /* COLLATE y */ g POINT)
            """)
        #expect(found == CreateTableSQL.Constraints())
    }
}
