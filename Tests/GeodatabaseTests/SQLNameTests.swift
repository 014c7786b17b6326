import Geodatabase
import SQLite
import Testing

/// Names compare as SQLite compares identifiers; SQLite itself is the oracle: two names are
/// one name exactly when SQLite refuses them as two columns of one table.
@Suite struct SQLNameTests {
    @Test(arguments: [
        ("parcels", "PARCELS"), ("GlobalID", "globalid"), ("a_B9", "A_b9"),
        ("É", "é"), ("Ärger", "ärger"), ("straße", "STRASSE"), ("İ", "i"), ("ǅ", "ǆ"), ("x", "x "), ("\u{E9}", "e\u{301}"),
    ])
    func namesAreOneExactlyWhenSQLiteSaysSo(a: String, b: String) throws {
        let db = try Connection(path: ":memory:")
        let sqliteAccepts = (try? db.execute("CREATE TABLE t(\(SQL.identifier(a)) INT, \(SQL.identifier(b)) INT)")) != nil
        #expect((SQLName(a) == SQLName(b)) == !sqliteAccepts)
        #expect((SQLName(a).hashValue == SQLName(b).hashValue) == !sqliteAccepts)
    }

    @Test func sqliteKeepsAccentedCapitalsApart() throws {
        let db = try Connection(path: ":memory:")
        try db.execute(#"CREATE TABLE t("É" INT, "é" INT)"#)
        #expect(SQLName("É") != SQLName("é"))
        #expect(Set<SQLName>(["É", "é", "e", "E"]).count == 3)
    }

    @Test func foldsAsSQLiteLowerDoes() throws {
        let db = try Connection(path: ":memory:")
        for name in ["ÉtatS", "Parcels_2024", "straSSe", "İstanbul"] {
            #expect(try db.scalar("SELECT lower(?)", [.text(name)])?.stringValue == SQLName(name).folded)
        }
    }

    @Test func keepsTheSpellingAsWritten() {
        let name: SQLName = "Parcels"
        #expect(name.text == "Parcels")
        #expect("\(name)" == "Parcels")
        #expect(name == "PARCELS")
        #expect(SQLName("ÉtatS").folded == "États")
        #expect([SQLName("parcels"): 1][SQLName("PaRcElS")] == 1)
    }

    @Test func ordersAndMatchesPrefixesInTheFold() {
        #expect(["b", "C", "a"].map { SQLName($0) }.sorted().map(\.text) == ["a", "b", "C"])
        #expect(SQLName("GPKG_contents").hasPrefix("gpkg"))
        #expect(!SQLName("gpk").hasPrefix("gpkg"))
        #expect(["Name", "GlobalID"].firstIndex(name: "globalid") == 1)
        #expect(["Name", "GlobalID"].first(name: "NAME") == "Name")
        #expect(!["É"].contains(name: "é"))
    }
}
