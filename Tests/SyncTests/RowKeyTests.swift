import Foundation
import PackageFormat
import Testing

/// A row key keeps a UUID global id in 16 bytes: it must give back exactly the text it was
/// made of, and two keys are equal exactly when their texts are (a sync's sets of rows read
/// them that way).
@Suite struct RowKeyTests {
    static let spellings = [
        "{8A3B7F0C-1D2E-4F60-9A8B-0C1D2E3F4A5B}",
        "{8a3b7f0c-1d2e-4f60-9a8b-0c1d2e3f4a5b}",
        "8a3b7f0c-1d2e-4f60-9a8b-0c1d2e3f4a5b",
        "8A3B7F0C-1D2E-4F60-9A8B-0C1D2E3F4A5B",
        "{00000000-0000-0000-0000-000000000000}",
        "{FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF}",
        // Not a UUID as a source writes one: kept as text, still exact.
        "{8A3B7F0C-1D2E-4F60-9a8b-0C1D2E3F4A5B}",
        "{8A3B7F0C1D2E-4F60-9A8B-0C1D2E3F4A5B-}",
        "{8A3B7F0C-1D2E-4F60-9A8B-0C1D2E3F4A5B",
        "8A3B7F0C-1D2E-4F60-9A8B-0C1D2E3F4A5B}",
        "{8A3B7F0C-1D2E-4F60-9A8B-0C1D2E3F4A5G}",
        " {8A3B7F0C-1D2E-4F60-9A8B-0C1D2E3F4A5B}",
        "8a3b7f0c1d2e4f609a8b0c1d2e3f4a5b",
        // 32 digits and four dashes, two of them side by side: not the 8-4-4-4-12 it would
        // be written back as.
        "8A3B7F0C--1D2E4F60-9A8B-0C1D2E3F4A5B",
        "",
        "row-7",
        "Zürich-1",
    ]

    @Test(arguments: spellings)
    func givesBackTheTextItWasMadeOf(text: String) {
        #expect(RowKey("features", text).globalID == text)
    }

    @Test func keysAreEqualExactlyWhenTheirTextsAre() {
        let keys = Self.spellings.map { RowKey("features", $0) }
        for (a, textA) in zip(keys, Self.spellings) {
            for (b, textB) in zip(keys, Self.spellings) {
                #expect((a == b) == (textA == textB), "\(textA) vs \(textB)")
            }
        }
        #expect(Set(keys).count == Set(Self.spellings).count)
        #expect(RowKey("Features", Self.spellings[0]) == RowKey("features", Self.spellings[0]))
        #expect(RowKey("other", Self.spellings[0]) != RowKey("features", Self.spellings[0]))
    }

    @Test func randomUUIDsRoundTripInEverySpelling() {
        for _ in 0..<2_000 {
            let upper = UUID().uuidString
            for text in [upper, upper.lowercased(), "{\(upper)}", "{\(upper.lowercased())}"] {
                #expect(RowKey("t", text).globalID == text)
            }
        }
    }
}
