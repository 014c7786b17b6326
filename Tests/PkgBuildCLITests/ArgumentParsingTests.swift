import Testing
@testable import PkgBuildCLI

private func run(_ arguments: [String]) -> CLIResult {
    CLI.run(arguments, root: TestRoot.self)
}

/// The stdout lines of an echo run, keyed by what precedes `=`.
private func echoed(_ result: CLIResult) -> [String: String] {
    var fields: [String: String] = [:]
    for line in result.stdout.split(separator: "\n") {
        guard let equals = line.firstIndex(of: "=") else { continue }
        fields[String(line[..<equals])] = String(line[line.index(after: equals)...])
    }
    return fields
}

@Suite struct ArgumentParsingTests {
    @Test(arguments: [
        ["--area", "-170,52,-130,72"],
        ["--area=-170,52,-130,72"],
    ])
    func negativeNumbersAreValues(areaTokens: [String]) throws {
        let result = run(["echo"] + areaTokens + ["--at", "-150.5,63.3", "--zoom", "0-12", "out.pkg", "-5"])
        #expect(result.exitCode == 0, "\(result.stderr)")
        #expect(result.stderr == "")
        let fields = echoed(result)
        #expect(fields["area"] == "-170,52,-130,72")
        #expect(fields["at"] == "-150.5,63.3")
        #expect(fields["zoom"] == "0-12")
        #expect(fields["package"] == "out.pkg")
        #expect(fields["extra"] == #"["-5"]"#)
    }

    @Test func numberLikeTokens() {
        for token in ["-5", "-170,52", "-.5", "-1e3", "-0"] {
            #expect(!ArgumentParser.looksLikeOption(token), "\(token)")
        }
        for token in ["-o", "--area", "-x", "--5x"] {
            #expect(ArgumentParser.looksLikeOption(token), "\(token)")
        }
        #expect(!ArgumentParser.looksLikeOption("-"))
        #expect(!ArgumentParser.looksLikeOption("out.pkg"))
    }

    @Test func repeatedOptionsKeepOrder() {
        let result = run(["echo", "p.pkg", "--area", "1,2,3,4",
                          "--layer", "parks", "--layer=airports",
                          "--header", "Authorization: Bearer x", "--header", "X-A: 1",
                          "--set", "name=Denali", "--set", "visits=-3"])
        #expect(result.exitCode == 0, "\(result.stderr)")
        let fields = echoed(result)
        #expect(fields["layers"] == #"["parks", "airports"]"#)
        #expect(fields["headers"] == #"["Authorization: Bearer x", "X-A: 1"]"#)
        #expect(fields["sets"] == #"["name=Denali", "visits=-3"]"#)
    }

    @Test func lastValueWinsAndDefaultsApply() {
        let result = run(["echo", "--area", "1,2,3,4", "--area", "5,6,7,8", "p.pkg"])
        let fields = echoed(result)
        #expect(fields["area"] == "5,6,7,8")
        #expect(fields["zoom"] == "0-12")
        #expect(fields["concurrency"] == "4")
        #expect(fields["at"] == "nil")
        #expect(fields["output"] == "nil")
        #expect(fields["dry-run"] == "false json=false")
    }

    @Test func flagsShortAliasesAndTypedValues() {
        let result = run(["echo", "-o", "x.pkg", "--dry-run", "--json", "--concurrency", "16",
                          "--area", "1,2,3,4", "p.pkg", "a", "b"])
        #expect(result.exitCode == 0, "\(result.stderr)")
        let fields = echoed(result)
        #expect(fields["output"] == "x.pkg")
        #expect(fields["concurrency"] == "16")
        #expect(fields["dry-run"] == "true json=true")
        #expect(fields["extra"] == #"["a", "b"]"#)
    }

    @Test func doubleDashEndsOptions() {
        let result = run(["echo", "--area", "1,2,3,4", "--", "--weird-name.pkg"])
        #expect(result.exitCode == 0, "\(result.stderr)")
        #expect(echoed(result)["package"] == "--weird-name.pkg")
    }

    @Test func nestedSubcommands() {
        let enable = run(["source", "enable", "SRC.gpkg", "-f"])
        #expect(enable.exitCode == 0)
        #expect(enable.stdout == "enable SRC.gpkg force=true\n")
        let status = run(["source", "status", "SRC"])
        #expect(status.stdout == "status SRC\n")
    }
}
