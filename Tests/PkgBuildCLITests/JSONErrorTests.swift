import Foundation
import Geometry
import PkgBuildCLI
import Testing
import TestSupport

/// Every leaf command of the tree under `root`, with its words (`["source", "enable"]`).
private func leafCommands(_ root: any Command.Type, path: [String] = []) -> [(words: [String], type: any Command.Type)] {
    let configuration = root.configuration
    guard !configuration.subcommands.isEmpty else { return [(path, root)] }
    return configuration.subcommands.flatMap { leafCommands($0, path: path + [$0.configuration.name]) }
}

/// stderr of a `--json` run: exactly `{"error": {"kind", "message", "input"}}` on one line.
private func errorDocument(_ stderr: String) throws -> (kind: String, message: String, input: String?) {
    #expect(stderr.hasSuffix("\n") && stderr.dropLast().split(separator: "\n").count == 1, "\(stderr)")
    let object = try parseJSONObject(stderr)
    #expect(Set(object.keys) == ["error"])
    let error = try #require(object["error"] as? [String: Any])
    #expect(Set(error.keys) == ["kind", "message", "input"], "\(error)")
    let input = error["input"]
    #expect(input is String || input is NSNull, "\(String(describing: input))")
    return (try #require(error["kind"] as? String), try #require(error["message"] as? String), input as? String)
}

@Suite("--json: on every command, and errors as JSON on stderr")
struct JSONErrorTests {
    @Test("every command takes --json, resolve and source unregister included")
    func everyCommandTakesJSON() {
        let leaves = leafCommands(PkgBuild.self).filter { $0.words != ["help"] }
        #expect(leaves.count >= 17)
        for leaf in leaves {
            let json = leaf.type.configuration.arguments.first { $0.name == "json" }
            #expect(json?.kind == .flag, "pkgbuild \(leaf.words.joined(separator: " ")) has no --json")
        }
    }

    @Test("a bad input's error is one JSON line with the text's words, the same exit code, and the input it names",
          arguments: BadInputCases.sources + BadInputCases.packages + BadInputCases.areas)
    func errorAsJSON(_ badCase: BadInputCase) throws {
        let fixture = try BadInputFixture()
        try badCase.breakInput(fixture)
        let arguments = badCase.arguments.map(fixture.expand)
        let text = CLI.run(arguments)
        // Broken again: the first run may have left what it found (it must not, but this test is about the form).
        try badCase.breakInput(fixture)
        let json = CLI.run(arguments + ["--json"])
        #expect(json.exitCode == text.exitCode)
        #expect(json.stdout.isEmpty)
        let document = try errorDocument(json.stderr)
        #expect("Error: \(document.message)\n" == text.stderr || text.exitCode == 64, "\(json.stderr) vs \(text.stderr)")
        let input = try #require(document.input, "no input for \(json.stderr)")
        #expect(arguments.contains(input) || arguments.contains("@" + input) || arguments.contains { $0.hasSuffix("=" + input) },
                "\(input) is not an argument of \(arguments)")
    }

    struct Expectation: Sendable, CustomTestStringConvertible {
        let arguments: [String]
        let breakInput: @Sendable (BadInputFixture) throws -> Void
        let kind: String
        let input: String?
        let exitCode: Int32
        var testDescription: String { "\(arguments.joined(separator: " ")) -> \(kind)" }
    }

    static let kinds: [Expectation] = [
        .init(arguments: ["estimate", BadInputCases.area, "--features", "{bad}"], breakInput: BadInputCases.notADatabase,
              kind: "source", input: "{bad}", exitCode: 1),
        .init(arguments: ["sync", "{pkg}", "--source", "{bad}"], breakInput: BadInputCases.directory,
              kind: "not_a_geopackage", input: "{bad}", exitCode: 1),
        .init(arguments: ["inspect", "{pkg}"], breakInput: BadInputCases.manifestWithoutReplica,
              kind: "package", input: "{pkg}", exitCode: 1),
        .init(arguments: ["estimate", "--area", BadInputCases.unclosed, "--features", "{src}"], breakInput: BadInputCases.none,
              kind: "area", input: BadInputCases.unclosed, exitCode: 1),
        .init(arguments: ["tiles", BadInputCases.area, "--zoom", "0-3", "--from", "{bad}", "-o", "{dir}/t.mbtiles"],
              breakInput: BadInputCases.directory, kind: "tiles", input: "{bad}", exitCode: 1),
        .init(arguments: ["resolve", "{pkg}", "--all", "--take", "source"], breakInput: BadInputCases.dataNotADatabase,
              kind: "not_a_geopackage", input: "{pkg}", exitCode: 1),
        .init(arguments: ["edit", "{pkg}", "--layer", "nope", "--id", "1", "--set", "a=1"], breakInput: BadInputCases.none,
              kind: "layer", input: "nope", exitCode: 1),
        .init(arguments: ["source", "unregister", "{src}", "r-404"], breakInput: BadInputCases.none,
              kind: "not_registered", input: "{src}", exitCode: 1),
        .init(arguments: ["tiles", "--zoom"], breakInput: BadInputCases.none, kind: "usage", input: nil, exitCode: 64),
        .init(arguments: ["sourc", "status"], breakInput: BadInputCases.none, kind: "usage", input: nil, exitCode: 64),
        .init(arguments: ["create", "--area"], breakInput: BadInputCases.none, kind: "usage", input: nil, exitCode: 64),
    ]

    @Test("kinds and inputs", arguments: kinds)
    func kindAndInput(_ expectation: Expectation) throws {
        let fixture = try BadInputFixture()
        try expectation.breakInput(fixture)
        let result = CLI.run(expectation.arguments.map(fixture.expand) + ["--json"])
        #expect(result.exitCode == expectation.exitCode)
        let document = try errorDocument(result.stderr)
        #expect(document.kind == expectation.kind, "\(result.stderr)")
        #expect(document.input == expectation.input.map(fixture.expand), "\(result.stderr)")
    }

    @Test("source unregister --json prints what it did (resolve --json: SyncCommandTests)")
    func unregisterJSON() throws {
        let fixture = try BadInputFixture()
        // A replica of the fixture's own source to unregister.
        let created = CLI.run(["create", BadInputCases.area, "--features", fixture.source, "-o", fixture.directory.path("r.pkg")])
        #expect(created.exitCode == 0, "\(created.stderr)")
        let replicas = try #require(try JSONSerialization.jsonObject(
            with: Data(CLI.run(["source", "replicas", fixture.source, "--json"]).stdout.utf8)) as? [[String: Any]])
        let id = try #require(replicas.first?["replica_id"] as? String ?? replicas.first?["id"] as? String, "\(replicas)")
        let unregistered = CLI.run(["source", "unregister", fixture.source, id, "--json"])
        #expect(unregistered.exitCode == 0, "\(unregistered.stderr)")
        let result = try parseJSONObject(unregistered.stdout)
        #expect(result["replica_id"] as? String == id && result["unregistered"] as? Bool == true, "\(result)")
    }
}
