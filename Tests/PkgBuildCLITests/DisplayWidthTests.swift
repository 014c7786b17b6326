import Foundation
@testable import PkgBuildCLI
import Testing
import TestSupport

/// Table columns line up on a terminal for names in any script. The oracle is glibc's
/// `wcswidth` (what terminals and `column(1)` count), called from Debian's python3.
@Suite struct DisplayWidthTests {
    /// Names a field team meets: precomposed and decomposed accents, CJK, Hangul, fullwidth
    /// forms, an emoji, a zero-width joiner.
    static let names = ["Zürich", "N\u{303}andu\u{301} Cafe\u{301}", "東京都庁", "한국 공원", "ｆｕｌｌ", "🌲 trail",
                        "a\u{200D}b", "plain", "Ελλάδα", "ﾊﾝｶｸ"]

    /// `wcswidth` of each text, in order.
    static func wcswidths(_ texts: [String]) throws -> [Int] {
        let script = """
            import ctypes, json, sys
            libc = ctypes.CDLL('libc.so.6')
            libc.setlocale(6, b'C.UTF-8')  # LC_ALL
            print(json.dumps([libc.wcswidth(ctypes.c_wchar_p(t), len(t)) for t in json.load(sys.stdin)]))
            """
        let directory = try TemporaryDirectory("pkgbuild-width")
        let input = directory.path("texts.json")
        try JSONSerialization.data(withJSONObject: texts).write(to: URL(fileURLWithPath: input))
        let result = try runProcess("/bin/sh", ["-c", "/usr/bin/python3 -c \"$0\" < \"$1\"", script, input])
        try #require(result.status == 0, "\(result.stderr)")
        return try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [Int])
    }

    @Test func widthIsWhatWcswidthCounts() throws {
        let expected = try Self.wcswidths(Self.names)
        #expect(Self.names.map(\.displayWidth) == expected)
    }

    @Test func tableColumnsLineUpInDisplayColumns() throws {
        var table = TextTable(columns: [.init("NAME"), .init("ROWS", alignment: .right), .init("|")])
        for (index, name) in Self.names.enumerated() { table.append([name, String(index * 997), "|"]) }
        let lines = table.rendered.split(separator: "\n").map(String.init)
        let prefixes = lines.map { String($0[..<$0.range(of: "|", options: .backwards)!.lowerBound]) }
        let widths = try Self.wcswidths(prefixes)
        #expect(Set(widths).count == 1, "the last column starts at columns \(widths):\n\(table.rendered)")
    }

    /// End to end: `source replicas` with packages named in other scripts.
    @Test func replicaNamesInOtherScriptsLineUp() throws {
        let directory = try TemporaryDirectory("pkgbuild-width")
        let source = try directory.copy(testdata: "demo/alaska_source.gpkg", as: "source.gpkg")
        for name in ["東京.pkg", "N\u{303}andu\u{301}.pkg", "plain.pkg"] {
            let created = CLI.run(["create", "--area=-155,57,-152,58.5", "--features", source, "-o", directory.path(name)])
            try #require(created.exitCode == 0, "\(created.stderr)")
        }
        let listed = CLI.run(["source", "replicas", source])
        #expect(listed.exitCode == 0, "\(listed.stderr)")
        let lines = listed.stdout.split(separator: "\n").map(String.init)
        let prefixes = lines.compactMap { line in line.range(of: "STATE").map { String(line[..<$0.lowerBound]) }
            ?? line.range(of: "active").map { String(line[..<$0.lowerBound]) } }
        #expect(prefixes.count == 4)
        let widths = try Self.wcswidths(prefixes)
        #expect(Set(widths).count == 1, "STATE starts at columns \(widths):\n\(listed.stdout)")
    }
}
