import Geometry
import Testing

@Suite struct JSONSyntaxTests {
    @Test("a syntax error names its line and column, as an editor shows them, and its byte")
    func syntaxErrorsSayWhere() {
        #expect(JSONValue.syntaxProblem(in: "{\n  \"a\": }") == "invalid value at line 2, column 8 (byte 9)")
        #expect(JSONValue.syntaxProblem(in: "[1, 2") == "expected ',' or ']' at line 1, column 6 (byte 5)")
        #expect(JSONValue.syntaxProblem(in: "{\"a\": [1, {\"b\": null}]}") == nil)
    }

    @Test("members keep the order of the text; a key given twice keeps its first place and its last value")
    func membersInOrder() throws {
        let value = try JSONValue(parsing: #"{"z": 1, "a": 2, "z": 3}"#, source: "test")
        #expect(value == .object([JSONMember("z", .int(3)), JSONMember("a", .int(2))]))
        #expect(value.compact == #"{"z":3,"a":2}"#)
    }
}
