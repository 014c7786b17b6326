import Testing
@testable import PkgBuildCLI

/// A closed set of words, declared only here: help must list exactly these.
enum Weather: String, CaseIterable, ExpressibleByArgument {
    case sunny, overcast, freezingRain = "freezing-rain"
}

/// A command with an enum option and a flag pair, to test those conventions in isolation.
struct SurveyCommand: Command {
    static let configuration = CommandConfiguration(
        name: "survey", abstract: "Record a survey.",
        arguments: [
            .option("weather", values: Weather.self, help: "The weather.", defaultValue: .sunny),
            .flagPair("photos", defaultValue: true, help: "Take photos."),
            .flagPair("night", defaultValue: false, help: "Survey at night."),
            .option("zoom", valueName: "range", help: "Zoom levels."),
        ])
    var weather: Weather
    var photos: Bool
    var night: Bool
    init(_ arguments: ParsedArguments) throws {
        weather = try arguments.required("weather")
        photos = arguments.flag("photos")
        night = arguments.flag("night")
    }
    func run(_ context: CommandContext) throws {
        context.print("weather=\(weather.rawValue) photos=\(photos) night=\(night) verbosity=\(context.verbosity)")
    }
}

struct SurveyRoot: CommandGroup {
    static let configuration = CommandConfiguration(
        name: "pkgbuild", abstract: "Survey root.", subcommands: [SurveyCommand.self, SourceGroup.self],
        version: "1.0")
}

private func survey(_ arguments: [String], environment: [String: String] = [:]) -> CLIResult {
    CLI.run(arguments, root: SurveyRoot.self, environment: environment)
}

@Suite struct ParserConventionsTests {
    @Test(arguments: [
        (["survey", "--zom", "3"], "Unknown option '--zom'; did you mean '--zoom'?"),
        (["survey", "--wether=sunny"], "Unknown option '--wether'; did you mean '--weather'?"),
        (["survey", "--no-photo"], "Unknown option '--no-photo'; did you mean '--no-photos'?"),
        (["survey", "--quite"], "Unknown option '--quite'; did you mean '--quiet'?"),
        (["survey", "--hepl"], "Unknown option '--hepl'; did you mean '--help'?"),
        (["survey", "--xyz"], "Unknown option '--xyz'"),
        (["survey", "-z"], "Unknown option '-z'"),
        (["suvrey"], "Unknown subcommand 'suvrey'; did you mean 'survey'?"),
        (["sourc", "enable"], "Unknown subcommand 'sourc'; did you mean 'source'?"),
        (["source", "enabel"], "Unknown subcommand 'enabel'; did you mean 'enable'?"),
        (["help", "source", "stat"], "Unknown subcommand 'stat'; did you mean 'status'?"),
        (["--versoin"], "Unknown option '--versoin'; did you mean '--version'?"),
        (["weather"], "Unknown subcommand 'weather'"),
    ])
    func misspeltWordsGetASuggestion(arguments: [String], message: String) {
        let result = survey(arguments)
        #expect(result.exitCode == 64)
        #expect(result.stderr.hasPrefix("Error: \(message)\n"), "\(result.stderr)")
    }

    @Test func editDistanceCountsASwapAsOneEdit() {
        #expect(Suggestion.editDistance("sycn", "sync") == 1)
        #expect(Suggestion.editDistance("zom", "zoom") == 1)
        #expect(Suggestion.editDistance("kitten", "sitting") == 3)
        #expect(Suggestion.editDistance("", "abc") == 3)
        #expect(Suggestion.nearest(to: "--dry", among: ["--json", "--dry-run"]) == "--dry-run")
        #expect(Suggestion.nearest(to: "tile", among: ["tiles", "title"]) == "tiles")
    }

    @Test func enumValuesComeFromTheType() {
        let help = survey(["survey", "--help"]).stdout
        let values = Weather.allCases.map(\.rawValue)
        #expect(help.contains("--weather <\(values.joined(separator: "|"))>"), "\(help)")
        let definition = SurveyCommand.configuration.arguments[0]
        #expect(definition.allowedValues == ["sunny", "overcast", "freezing-rain"])
        let bad = survey(["survey", "--weather", "hail"])
        #expect(bad.exitCode == 64)
        #expect(bad.stderr.hasPrefix("Error: The value 'hail' is invalid for '--weather <sunny|overcast|freezing-rain>': "
                                     + "expected one of sunny, overcast, freezing-rain\n"))
        #expect(survey(["survey", "--weather", "freezing-rain"]).stdout.hasPrefix("weather=freezing-rain "))
    }

    @Test(arguments: [
        ([String](), "photos=true night=false"),
        (["--no-photos"], "photos=false night=false"),
        (["--no-photos", "--photos"], "photos=true night=false"),
        (["--night"], "photos=true night=true"),
        (["--night", "--no-night"], "photos=true night=false"),
    ])
    func flagPairsTakeTheLastOfTheTwo(flags: [String], expected: String) {
        let result = survey(["survey"] + flags)
        #expect(result.exitCode == 0, "\(result.stderr)")
        #expect(result.stdout.contains(expected), "\(result.stdout)")
    }

    @Test func flagPairsShowBothHalvesInHelp() {
        let help = survey(["survey", "--help"]).stdout
        #expect(help.contains("  --[no-]photos           Take photos. (default: --photos)\n"), "\(help)")
        #expect(help.contains("  --[no-]night            Survey at night. (default: --no-night)\n"), "\(help)")
        #expect(help.contains("[--[no-]photos]"))
        #expect(survey(["survey", "--no-photos=1"]).stderr.hasPrefix("Error: The flag '--[no-]photos' does not take a value"))
        // `--no-` belongs to pairs only.
        #expect(survey(["survey", "--no-zoom"]).exitCode == 64)
    }

    @Test(arguments: [(["COLUMNS": "120"], 120), (["COLUMNS": "50"], 50), ([:], 80), (["COLUMNS": "10"], 40),
                      (["COLUMNS": "wide"], 80)])
    func helpWrapsToColumns(environment: [String: String], width: Int) {
        let text = CLI.run(["help", "source"], root: PkgBuild.self, environment: environment).stdout
        let lines = text.split(separator: "\n")
        #expect(lines.allSatisfy { $0.count <= width }, "\(text)")
        // Some line uses most of the width, so the wrapping follows it rather than staying at 80.
        #expect(lines.contains { $0.count > width - 15 }, "\(text)")
    }

    @Test func helpWrapsToTheTerminalItRunsIn() {
        let context = CommandContext(stdout: CapturedOutput(), stderr: CapturedOutput(), stdoutColumns: 132)
        #expect(context.stdoutWidth == 132)
        #expect(CommandContext(stdout: CapturedOutput(), stderr: CapturedOutput()).stdoutWidth == 80)
        var withColumns = context
        withColumns.environment = ["COLUMNS": "100"]
        #expect(withColumns.stdoutWidth == 100)
    }

    @Test func quietAndVerboseOnEveryCommand() {
        #expect(survey(["survey", "-q"]).stdout.contains("verbosity=quiet"))
        #expect(survey(["survey", "--verbose"]).stdout.contains("verbosity=verbose"))
        #expect(survey(["survey"]).stdout.contains("verbosity=normal"))
        let both = survey(["survey", "--quiet", "--verbose"])
        #expect(both.exitCode == 64)
        #expect(both.stderr.hasPrefix("Error: --quiet and --verbose cannot be used together\n"))
    }
}
