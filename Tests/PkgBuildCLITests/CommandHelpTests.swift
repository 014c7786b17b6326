import Foundation
import PkgBuildCLI
import Testing

/// The real command tree's help reads the same everywhere: the sections in order, help text
/// written one way, placeholders in capitals, defaults shown as `(default: ...)`.
@Suite struct CommandHelpTests {
    /// Every command of `pkgbuild` with the words that name it (`["source", "enable"]`).
    static let commands: [(path: [String], configuration: CommandConfiguration)] = {
        func walk(_ command: any Command.Type, _ path: [String]) -> [(path: [String], configuration: CommandConfiguration)] {
            [(path, command.configuration)] + command.configuration.subcommands.flatMap { walk($0, path + [$0.configuration.name]) }
        }
        return PkgBuild.subcommands.flatMap { walk($0, [$0.configuration.name]) }
    }()

    static let commandPaths = commands.map(\.path)

    @Test func noArgumentsPrintsTheRootHelp() {
        let bare = CLI.run([])
        #expect(bare.exitCode == 0 && bare.stderr.isEmpty)
        #expect(bare.stdout == CLI.run(["--help"]).stdout)
        #expect(bare.stdout.hasPrefix("OVERVIEW: "))
        for name in PkgBuild.subcommands.map({ $0.configuration.name }) {
            #expect(bare.stdout.contains("\n  \(name) "), "\(name) missing from the root help")
        }
    }

    /// The exit codes of the contract, where `pkgbuild --help` says them.
    @Test func rootHelpGivesTheExitCodes() {
        let help = CLI.run(["--help"]).stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        for code in ["0 completed", "1 failed or refused", "2 a conflict is still unresolved", "3 verify found divergence",
                     "64 usage error", "130 interrupted"] {
            #expect(help.contains(code), "\(code) missing from the root help")
        }
    }

    @Test(arguments: commandPaths)
    func helpPageHasItsSectionsInOrder(path: [String]) throws {
        let page = CLI.run(path + ["--help"])
        #expect(page.exitCode == 0 && page.stderr.isEmpty)
        #expect(CLI.run(["help"] + path).stdout == page.stdout)
        #expect(CLI.run(path + ["-h"]).stdout == page.stdout)
        let headings = page.stdout.split(separator: "\n").compactMap { line -> String? in
            guard let colon = line.firstIndex(of: ":"), line.first?.isUppercase == true else { return nil }
            let word = line[..<colon]
            return word.allSatisfy({ $0.isUppercase }) ? String(word) : nil
        }
        let configuration = try #require(Self.commands.first { $0.path == path }?.configuration)
        var expected = ["OVERVIEW", "USAGE"]
        if configuration.arguments.contains(where: { if case .positional = $0.kind { true } else { false } }) {
            expected.append("ARGUMENTS")
        }
        expected.append("OPTIONS")
        if !configuration.subcommands.isEmpty { expected.append("SUBCOMMANDS") }
        #expect(headings == expected, "\(path)")
        for line in page.stdout.split(separator: "\n") {
            #expect(line.count <= 80, "\(path): \(line)")
        }
    }

    @Test(arguments: commandPaths)
    func argumentsAreDescribedOneWay(path: [String]) throws {
        let configuration = try #require(Self.commands.first { $0.path == path }?.configuration)
        #expect(configuration.abstract.first?.isUppercase == true && configuration.abstract.hasSuffix("."), "\(path)")
        for argument in configuration.arguments {
            let label = "\(path.joined(separator: " ")) \(argument.name)"
            let help = argument.help
            #expect(help.first?.isUppercase == true, "\(label): \(help)")
            // A description ends with a full stop, then at most a stated default.
            let sentence = help.range(of: ". (default: ").map { String(help[..<$0.lowerBound]) + "." } ?? help
            #expect(sentence.hasSuffix("."), "\(label): \(help)")
            #expect(!help.contains("default") || help.contains(". (default: ") && help.hasSuffix(")"),
                    "\(label): a default is written '. (default: ...)': \(help)")
            #expect(!(argument.defaultValue != nil && help.contains("(default:")), "\(label): two defaults")
            // The help page adds "(may be repeated)" itself.
            #expect(!help.contains("repeat"), "\(label): \(help)")
            #expect(argument.name.range(of: "^[a-z][a-z0-9-]*$", options: .regularExpression) != nil, "\(label)")
            if case .flag = argument.kind { continue }
            // A placeholder in capitals (AREA.pkg, CRS, N), or the literal choices (fail|source-wins).
            let value = argument.valueName
            let isChoice = value.contains("|") && value.split(separator: "|").allSatisfy {
                $0.range(of: "^[a-z][a-z0-9-]*$", options: .regularExpression) != nil
            }
            #expect(isChoice || value.contains(where: { $0.isUppercase }), "\(label): <\(value)>")
        }
    }
}
