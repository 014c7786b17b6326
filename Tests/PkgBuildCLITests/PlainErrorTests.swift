import Foundation
import Geometry
import PkgBuildCLI
import Testing
import TestSupport

/// One bad input given to one command: the error must name the input and say what is wrong in
/// words, never in a library's (SQLite's codes and SQL, Foundation's error domains, Swift's
/// `DecodingError`, GEOS's exceptions).
struct BadInputCase: Sendable, CustomTestStringConvertible {
    /// What the case gives, for the test's name.
    let what: String
    /// The command line; `{pkg}` is a package built for the case, `{src}` its source, `{bad}` the
    /// broken input, `{dir}` the case's directory.
    let arguments: [String]
    /// Makes the broken input `{bad}` (or breaks `{pkg}`) in the case's directory.
    let breakInput: @Sendable (BadInputFixture) throws -> Void
    /// Words the error must hold, after `{…}` are replaced.
    let expected: [String]

    var testDescription: String { "\(arguments.first ?? "") \(what)" }
}

/// A directory with a package of the demo area (`{pkg}`), its source (`{src}`) and a path for
/// a broken input (`{bad}`).
struct BadInputFixture {
    let directory: TemporaryDirectory
    let source: String
    let package: String
    var bad: String { directory.path("bad.gpkg") }

    /// A copy of a package built once for all cases.
    init() throws {
        directory = try TemporaryDirectory("pkgbuild-bad-input")
        let template = try Self.template.get()
        source = try directory.copy(testdata: "demo/alaska_source.gpkg", as: "source.gpkg")
        package = directory.path("denali.pkg")
        try FileManager.default.copyItem(atPath: template.package, toPath: package)
    }

    private static let template: Result<InspectFixture, any Error> = Result { try InspectFixture(tiles: false) }

    func text(_ content: String, at path: String) throws {
        try? FileManager.default.removeItem(atPath: path)
        try Data(content.utf8).write(to: URL(fileURLWithPath: path))
    }

    func folder(at path: String) throws {
        try? FileManager.default.removeItem(atPath: path)
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
    }

    /// Rewrites the package's manifest with `change` applied to its JSON object.
    func editManifest(_ change: (inout [String: Any]) -> Void) throws {
        let url = URL(fileURLWithPath: package + "/manifest.json")
        var object = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
        change(&object)
        try JSONSerialization.data(withJSONObject: object).write(to: url)
    }

    func expand(_ text: String) -> String {
        text.replacingOccurrences(of: "{pkg}", with: package).replacingOccurrences(of: "{src}", with: source)
            .replacingOccurrences(of: "{bad}", with: bad).replacingOccurrences(of: "{dir}", with: directory.url.path)
    }
}

@Suite("Bad input: errors in words, naming the input")
struct PlainErrorTests {
    /// What a library's own report looks like; none of it may reach a user.
    static let internals = ["SQLite error", "while executing", "while opening", "NSCocoaErrorDomain", "DecodingError",
                            "CodingKeys", "GEOS", "IllegalArgumentException", "disk I/O error", "sqlite_master"]

    @Test(arguments: BadInputCases.sources + BadInputCases.packages + BadInputCases.areas)
    func errorNamesInputAndProblem(_ badCase: BadInputCase) throws {
        let fixture = try BadInputFixture()
        try badCase.breakInput(fixture)
        let result = CLI.run(badCase.arguments.map(fixture.expand))
        #expect(result.exitCode != 0)
        #expect(result.stderr.hasPrefix("Error: "), "\(result.stderr)")
        for words in badCase.expected.map(fixture.expand) {
            #expect(result.stderr.contains(words), "\(result.stderr) lacks '\(words)'")
        }
        for marker in Self.internals {
            #expect(!result.stderr.contains(marker), "\(result.stderr)")
        }
    }
}
