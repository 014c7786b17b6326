import Testing
@testable import Geodatabase

/// The `--where` grammar: each construct, precedence, quoting, numbers, and a refusal naming
/// the token (and its 1-based position) for anything else.
@Suite struct FilterParserTests {
    static let columns = ["fid", "name", "Type", "unit type", "say \"hi\"", "score"]

    func parse(_ text: String) throws -> FilterExpression {
        try FilterParser.parse(text, columns: Self.columns)
    }

    @Test(arguments: [
        ("name = 'x'", FilterExpression.comparison(.column("name"), .equal, .text("x"))),
        ("name <> 'x'", .comparison(.column("name"), .notEqual, .text("x"))),
        ("name != 'x'", .comparison(.column("name"), .notEqual, .text("x"))),
        ("fid < 3", .comparison(.column("fid"), .less, .integer(3))),
        ("fid <= 3", .comparison(.column("fid"), .lessOrEqual, .integer(3))),
        ("fid > 3", .comparison(.column("fid"), .greater, .integer(3))),
        ("fid >= 3", .comparison(.column("fid"), .greaterOrEqual, .integer(3))),
        ("3 < fid", .comparison(.integer(3), .less, .column("fid"))),
        ("score = fid", .comparison(.column("score"), .equal, .column("fid"))),
        ("fid IN (1, 2, 3)", .inList(.column("fid"), [.integer(1), .integer(2), .integer(3)], negated: false)),
        ("fid not in ('a')", .inList(.column("fid"), [.text("a")], negated: true)),
        ("fid BETWEEN 1 AND 5", .between(.column("fid"), low: .integer(1), high: .integer(5), negated: false)),
        ("fid NOT BETWEEN -1 AND 0.5", .between(.column("fid"), low: .integer(-1), high: .real(0.5), negated: true)),
        ("name LIKE 'D%'", .like(.column("name"), pattern: .text("D%"), negated: false)),
        ("name NOT LIKE '_a%'", .like(.column("name"), pattern: .text("_a%"), negated: true)),
        ("name IS NULL", .isNull(.column("name"), negated: false)),
        ("name IS NOT NULL", .isNull(.column("name"), negated: true)),
        ("NOT name IS NULL", .not(.isNull(.column("name"), negated: false))),
        ("NOT NOT fid = 1", .not(.not(.comparison(.column("fid"), .equal, .integer(1))))),
    ])
    func readsEachConstruct(text: String, expected: FilterExpression) throws {
        #expect(try parse(text) == expected)
    }

    @Test func notBindsTighterThanAndThanOr() throws {
        let a = FilterExpression.comparison(.column("fid"), .equal, .integer(1))
        let b = FilterExpression.comparison(.column("fid"), .equal, .integer(2))
        let c = FilterExpression.comparison(.column("fid"), .equal, .integer(3))
        #expect(try parse("fid = 1 OR fid = 2 AND fid = 3") == .or([a, .and([b, c])]))
        #expect(try parse("fid = 1 AND fid = 2 OR fid = 3") == .or([.and([a, b]), c]))
        #expect(try parse("NOT fid = 1 AND fid = 2") == .and([.not(a), b]))
        #expect(try parse("NOT (fid = 1 AND fid = 2)") == .not(.and([a, b])))
        #expect(try parse("(fid = 1 OR fid = 2) AND fid = 3") == .and([.or([a, b]), c]))
        #expect(try parse("fid = 1 OR fid = 2 OR fid = 3") == .or([a, b, c]))
        #expect(try parse("(fid = 1 OR fid = 2) OR fid = 3") == .or([.or([a, b]), c]))
        // BETWEEN's AND is its own, not a conjunction.
        #expect(try parse("fid BETWEEN 1 AND 2 AND fid = 3")
                == .and([.between(.column("fid"), low: .integer(1), high: .integer(2), negated: false), c]))
    }

    @Test func namesMatchTheLayersColumnsWhateverTheirCaseAndQuoting() throws {
        #expect(try parse("TYPE = 'a'") == .comparison(.column("Type"), .equal, .text("a")))
        #expect(try parse("\"type\" = 'a'") == .comparison(.column("Type"), .equal, .text("a")))
        #expect(try parse("\"unit type\" = 'a'") == .comparison(.column("unit type"), .equal, .text("a")))
        #expect(try parse("\"say \"\"hi\"\"\" IS NULL") == .isNull(.column("say \"hi\""), negated: false))
        #expect(try parse("name like 'x' and fid is not null or not fid in (1)").columns == ["name", "fid"])
    }

    @Test func readsTextAndNumbers() throws {
        #expect(try parse("name = 'O''Brien'") == .comparison(.column("name"), .equal, .text("O'Brien")))
        #expect(try parse("name = ''") == .comparison(.column("name"), .equal, .text("")))
        #expect(try parse("name = 'a -- b; /* c */'") == .comparison(.column("name"), .equal, .text("a -- b; /* c */")))
        #expect(try parse("name = 'Åland \"x\"'") == .comparison(.column("name"), .equal, .text("Åland \"x\"")))
        let numbers: [(String, FilterOperand)] = [
            ("42", .integer(42)), ("-42", .integer(-42)), ("- 42", .integer(-42)), ("0.5", .real(0.5)), (".5", .real(0.5)),
            ("-2.5", .real(-2.5)), ("1e3", .real(1000)), ("1.5E-3", .real(0.0015)), ("-9223372036854775808", .integer(.min)),
            ("9223372036854775807", .integer(.max)),
        ]
        for (text, value) in numbers {
            #expect(try parse("fid = \(text)") == .comparison(.column("fid"), .equal, value), "\(text)")
        }
    }

    @Test(arguments: [
        ("length(name) > 3", "length(", 1, "function calls"),
        ("fid IN (SELECT fid FROM airports)", "SELECT", 9, nil),
        ("EXISTS (SELECT 1)", "EXISTS", 1, nil),
        ("fid = 1; DROP TABLE parks", ";", 8, "one expression only"),
        ("fid = 1 -- the rest", "--", 9, "comments"),
        ("fid = 1 /* hidden */", "/*", 9, "comments"),
        ("name = NULL", "NULL", 8, "IS NULL"),
        ("fid == 1", "==", 5, "use ="),
        ("name || 'x' = 'ax'", "||", 6, nil),
        ("fid = 0x1F", "0x1F", 7, "not a number"),
        ("fid = 3km", "3km", 7, "not a number"),
        ("fid = 1e999", "1e999", 7, "out of range"),
        ("fid = 99999999999999999999", "99999999999999999999", 7, "out of range"),
        ("name = 'open", "'open", 8, "not closed"),
        ("fid IN ()", ")", 9, nil),
        ("fid", "", 4, "expected a comparison"),
        ("", "", 1, nil),
        ("fid = 1 fid = 2", "fid", 9, nil),
        ("fid = 1)", ")", 8, nil),
        ("(fid = 1", "", 9, "expected ')'"),
        ("fid NOT = 1", "=", 9, "after NOT"),
        ("fid IS 1", "1", 8, "expected NULL"),
        ("parks.fid = 1", ".", 6, nil),
        ("fid = ?", "?", 7, nil),
        ("name LIKE 'a!%' ESCAPE '!'", "ESCAPE", 17, nil),
        ("fid = -name", "name", 8, "minus"),
        ("[fid] = 1", "[", 1, nil),
        ("name = x'00'", "x", 8, nil),
        ("CAST(fid AS TEXT) = '1'", "CAST", 1, nil),
        ("fid = 1 AND", "", 12, nil),
    ] as [(String, String, Int, String?)])
    func refusesAnythingElseNamingTheToken(text: String, token: String, position: Int, reason: String?) throws {
        let error = #expect(throws: FilterSyntaxError.self) { try parse(text) }
        #expect(error?.token == token, "\(text): \(error?.description ?? "")")
        #expect(error?.position == position, "\(text): \(error?.description ?? "")")
        if let reason { #expect(error?.description.contains(reason) == true, "\(text): \(error?.description ?? "")") }
        if !token.isEmpty { #expect(error?.description.contains("'\(token)' at \(position)") == true) }
    }

    /// Text ends where SQLite would end it: at a quote, whatever combining mark follows it
    /// (one Character with the quote to Swift), and a doubled one stays in the text.
    @Test func readsQuotesAsSQLiteDoesWhateverFollowsThem() throws {
        let error = #expect(throws: FilterSyntaxError.self) { try parse("name = 'a'\u{301} OR fid > 0") }
        #expect(error?.token == "U+0301" && error?.position == 11, "\(error?.description ?? "")")
        #expect(try parse("name = 'a''\u{301}b'") == .comparison(.column("name"), .equal, .text("a'\u{301}b")))
        #expect(try FilterParser.parse("\"a\"\"\u{301}\" IS NULL", columns: ["a\"\u{301}"]) == .isNull(.column("a\"\u{301}"), negated: false))
        #expect(try parse("name = 'caf\u{65}\u{301}'") == .comparison(.column("name"), .equal, .text("caf\u{65}\u{301}")))
    }

    /// Keywords match in any case of their ASCII letters only, as in SQLite: a word that
    /// Unicode case mapping alone makes `IN` or `SELECT` is a name.
    @Test func keywordsIgnoreTheCaseOfASCIILettersOnly() throws {
        #expect(try parse("fid iN (1)") == .inList(.column("fid"), [.integer(1)], negated: false))
        let dotless = #expect(throws: FilterSyntaxError.self) { try parse("fid \u{131}n (1)") }
        #expect(dotless?.token == "\u{131}n" && dotless?.position == 5, "\(dotless?.description ?? "")")
        let longS = #expect(throws: FilterSyntaxError.self) { try parse("\u{17F}elect = 1") }
        #expect(longS?.description.hasPrefix("unknown column '\u{17F}elect'") == true, "\(longS?.description ?? "")")
    }

    @Test func refusesAColumnTheLayerDoesNotHave() throws {
        let error = #expect(throws: FilterSyntaxError.self) { try parse("fid = 1 AND nosuch = 2") }
        #expect(error?.description.hasPrefix("unknown column 'nosuch' at 13") == true, "\(error?.description ?? "")")
        #expect(error?.description.contains("fid, name, Type") == true)
        // Quoting does not make a name a text, as SQLite's fallback would.
        #expect(throws: FilterSyntaxError.self) { try parse("\"nosuch\" = 'x'") }
    }

    @Test func refusesNestingDeeperThanTheLimitWithoutRecursingFurther() throws {
        let deep = String(repeating: "(", count: 10_000) + "fid = 1" + String(repeating: ")", count: 10_000)
        let error = #expect(throws: FilterSyntaxError.self) { try parse(deep) }
        #expect(error?.description.contains("nested more than 64 deep") == true, "\(error?.description ?? "")")
        let nots = String(repeating: "NOT ", count: 10_000) + "fid = 1"
        #expect(throws: FilterSyntaxError.self) { try parse(nots) }
        let fine = String(repeating: "(", count: 60) + "fid = 1" + String(repeating: ")", count: 60)
        #expect(try parse(fine) == .comparison(.column("fid"), .equal, .integer(1)))
    }
}
