import Geodatabase
import SQLite
import Testing

/// Typed globalids, read by the one parser every command uses; SQLite's own `upper` and
/// `trim` agree with it on stored ids.
@Suite struct GlobalIDParsingTests {
    static let stored = "{8A3B7F0C-1D2E-4F60-9A8B-0C1D2E3F4A5B}"

    @Test(arguments: [
        ("{8A3B7F0C-1D2E-4F60-9A8B-0C1D2E3F4A5B}", true),
        ("{8a3b7f0c-1d2e-4f60-9a8b-0c1d2e3f4a5b}", true),
        ("8a3b7f0c-1d2e-4f60-9a8b-0c1d2e3f4a5b", true),
        (" 8A3B7F0C-1D2E-4F60-9A8B-0C1D2E3F4A5B ", true),
        ("{8A3B7F0C-1D2E-4F60-9A8B-0C1D2E3F4A5C}", false),
        ("8A3B7F0C", false),
    ])
    func typedSpellingsMatchTheStoredID(typed: String, matches: Bool) throws {
        #expect(GlobalID.matches(Self.stored, typed: typed) == matches)
        #expect(GlobalID.matches(String(Self.stored.dropFirst().dropLast()).lowercased(), typed: typed) == matches)
        let connection = try Connection(path: ":memory:")
        let condition = GlobalID.condition("g", typed: typed)
        let count = try connection.scalar("WITH t(g) AS (SELECT ?) SELECT count(*) FROM t WHERE \(condition.sql)",
                                          [.text(Self.stored), .text(condition.argument)])
        #expect(count?.int64Value == (matches ? 1 : 0))
    }

    @Test func anAdoptedIDThatIsNoUUIDMatchesAsItIs() {
        #expect(GlobalID.normalized("parcel-17") == nil)
        #expect(GlobalID.matches("parcel-17", typed: "parcel-17"))
        #expect(!GlobalID.matches("parcel-17", typed: "PARCEL-17"))
        #expect(GlobalID.condition("g", typed: "parcel-17") == ("g = ?", "parcel-17"))
    }
}
