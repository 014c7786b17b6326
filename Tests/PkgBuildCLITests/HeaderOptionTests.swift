import Foundation
import PkgBuildCLI
import Testing
import TestSupport

/// `--header` is checked when the command line is read: a malformed header is a usage error
/// (exit 64) naming the option, for `tiles`, `create` and `estimate` alike, and nothing runs.
@Suite struct HeaderOptionTests {
    static let template = "http://127.0.0.1:9/{z}/{x}/{y}.png"

    static let malformed: [(header: String, reason: String)] = [
        ("novalue", "is not 'Name: value'"),
        (": empty name", "is empty or not a valid token"),
        ("Bad Name: x", "is empty or not a valid token"),
        ("X-Token: a\r\nInjected: 1", "has a line break in its value"),
        ("X-Token: a\nInjected: 1", "has a line break in its value"),
    ]

    func commandLines(header: String, dir: TemporaryDirectory) -> [[String]] {
        let area = "--area=-153.5,60.8,-147.5,64.3"
        let source = dir.path("alaska_source.gpkg")
        return [
            ["tiles", area, "--zoom", "0-2", "--from", Self.template, "-o", dir.path("t.mbtiles"), "--header", header],
            ["create", area, "--features", source, "--tiles", Self.template, "--zoom", "0-2",
             "-o", dir.path("a.pkg"), "--header", header],
            ["estimate", area, "--features", source, "--tiles", Self.template, "--zoom", "0-2", "--header", header],
        ]
    }

    @Test(arguments: malformed)
    func malformedHeaderIsAUsageErrorNamingTheOption(header: String, reason: String) throws {
        let dir = try TemporaryDirectory()
        let source = try dir.copy(testdata: "demo/alaska_source.gpkg")
        let sourceBytes = try Data(contentsOf: URL(fileURLWithPath: source))
        for argv in commandLines(header: header, dir: dir) {
            let result = CLI.run(argv)
            #expect(result.exitCode == 64, "\(argv[0]): \(result.stderr)")
            let firstLine = result.stderr.split(separator: "\n", omittingEmptySubsequences: false).first ?? ""
            #expect(firstLine.hasPrefix("Error: The value '"), "\(argv[0]): \(result.stderr)")
            #expect(firstLine.contains("is invalid for '--header <NAME: VALUE>'") && firstLine.contains(reason),
                    "\(argv[0]): \(result.stderr)")
            // The injected header never reaches the output as a line of its own.
            #expect(!result.stderr.contains("\nInjected"), "\(argv[0]): \(result.stderr)")
            #expect(result.stdout.isEmpty)
        }
        // Nothing was written or registered.
        let names = try FileManager.default.contentsOfDirectory(atPath: dir.url.path)
        #expect(names == ["alaska_source.gpkg"], "\(names)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: source)) == sourceBytes)
    }

    @Test func headerWithoutATileSourceIsAUsageError() throws {
        let dir = try TemporaryDirectory()
        let source = try dir.copy(testdata: "demo/alaska_source.gpkg")
        let result = CLI.run(["estimate", "--area=-153.5,60.8,-147.5,64.3", "--features", source,
                              "--header", "X-Token: a"])
        #expect(result.exitCode == 64)
        #expect(result.stderr.hasPrefix("Error: --header needs --tiles"), "\(result.stderr)")
    }
}
