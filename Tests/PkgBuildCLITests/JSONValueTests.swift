import Foundation
import Geometry
import Testing
@testable import PkgBuildCLI

@Suite struct JSONValueTests {
    @Test(arguments: [
        ("plain", #""plain""#),
        ("quote \" backslash \\", #""quote \" backslash \\""#),
        ("line\nreturn\rtab\t", #""line\nreturn\rtab\t""#),
        ("\u{08}\u{0C}\u{00}\u{1F}", #""\b\f\u0000\u001f""#),
        ("slash / stays", #""slash / stays""#),
        ("Denali – ᐊᓯᐊᓐ 🏔", "\"Denali – ᐊᓯᐊᓐ 🏔\""),
        ("\u{2028}\u{2029}", #""\u2028\u2029""#),
    ])
    func stringEscaping(input: String, expected: String) throws {
        let encoded = JSONValue.string(input).compact
        #expect(encoded == expected)
        // Foundation's parser, not ours, reads it back to the same text.
        let decoded = try JSONSerialization.jsonObject(with: Data("[\(encoded)]".utf8)) as? [String]
        #expect(decoded == [input])
    }

    @Test(arguments: [
        (0.0, "0"), (-0.0, "0"), (3.0, "3"), (-150.5, "-150.5"), (0.1, "0.1"),
        (63.3, "63.3"), (1e-7, "1e-07"), (1e20, "1e+20"), (-20037508.342789244, "-20037508.342789244"),
        (Double.nan, "null"), (Double.infinity, "null"),
    ])
    func numberFormatting(value: Double, expected: String) throws {
        #expect(JSONValue.number(value).compact == expected)
        if value.isFinite {
            // Reads back to the same bits (strtod; Foundation's JSON parser on Linux rounds).
            #expect(Double(expected) == value)
        }
    }

    @Test func integersAreExact() {
        #expect(JSONValue.int(Int64.max).compact == "9223372036854775807")
        #expect(JSONValue.int(-42).compact == "-42")
        #expect(JSONValue.int(UInt64.max).compact == "9223372036854775807")
    }

    @Test func keysKeepTheirOrder() {
        let value: JSONValue = ["zoom": 12, "area": [-170, 52.5], "name": "x", "a": nil, "ok": true]
        #expect(value.compact == #"{"zoom":12,"area":[-170,52.5],"name":"x","a":null,"ok":true}"#)
        #expect(value["area"] == [-170, 52.5])
        #expect(value["missing"] == nil)
    }

    @Test func prettyPrinting() {
        let value: JSONValue = [
            "package": "AK.pkg",
            "layers": [["name": "parks", "count": 412], ["name": "airports", "count": 0]],
            "empty": [],
            "none": .object([]),
        ]
        #expect(value.prettyPrinted == """
            {
              "package": "AK.pkg",
              "layers": [
                {
                  "name": "parks",
                  "count": 412
                },
                {
                  "name": "airports",
                  "count": 0
                }
              ],
              "empty": [],
              "none": {}
            }
            """)
    }
}
