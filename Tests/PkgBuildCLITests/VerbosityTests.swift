import Foundation
import Testing
import PkgBuildCLI
import TestSupport

/// `--quiet` keeps results, warnings and errors and drops the lines that only say what was
/// done; `--verbose` adds the inputs as understood and the time taken, on stderr.
@Suite struct VerbosityTests {
    static let area = "--area=-153.5,60.8,-147.5,64.3"
    static let tiles = TestData.url("ne_raster_z0-5.mbtiles").path

    @Test(arguments: CommandHelpTests.commands.filter { $0.configuration.subcommands.isEmpty }.map(\.path))
    func everyCommandTakesQuietAndVerbose(path: [String]) {
        let help = CLI.run(path + ["--help"]).stdout
        #expect(help.contains("\n  -q, --quiet "), "\(path)")
        #expect(help.contains("\n  -v, --verbose "), "\(path)")
        let both = CLI.run(path + ["-q", "-v", "--help"])
        #expect(both.exitCode == 0, "help wins over everything, as with swift-argument-parser")
    }

    @Test func createAndSyncSayNothingButWarningsUnderQuiet() throws {
        let dir = try TemporaryDirectory()
        let source = try dir.copy(testdata: "demo/alaska_source.gpkg")
        let quiet = CLI.run(["create", Self.area, "--features", source, "--tiles", Self.tiles, "--zoom", "0-3",
                             "-o", dir.path("q.pkg"), "--quiet"])
        #expect(quiet.exitCode == 0, "\(quiet.stderr)")
        #expect(quiet.stdout == "" && quiet.stderr == "")
        #expect(FileManager.default.fileExists(atPath: dir.path("q.pkg/data.gpkg")))

        let normal = CLI.run(["create", Self.area, "--features", source, "-o", dir.path("n.pkg")])
        #expect(normal.stdout.hasPrefix("Built \(dir.path("n.pkg"))\n"), "\(normal.stdout)")
        #expect(normal.stdout.contains("parks"))
        #expect(normal.stderr == "")

        #expect(CLI.run(["sync", dir.path("q.pkg"), "-q"]) == (0, "", ""))
        #expect(CLI.run(["sync", dir.path("q.pkg")]).stdout != "")
        // --json is the result asked for: --quiet does not take it away.
        #expect(CLI.run(["sync", dir.path("q.pkg"), "-q", "--json"]).stdout.contains("{"))
    }

    @Test func resultsStayUnderQuiet() throws {
        let dir = try TemporaryDirectory()
        let source = try dir.copy(testdata: "demo/alaska_source.gpkg")
        let estimate = CLI.run(["estimate", Self.area, "--features", source, "-q"])
        #expect(estimate.exitCode == 0, "\(estimate.stderr)")
        #expect(estimate.stdout == CLI.run(["estimate", Self.area, "--features", source]).stdout)
        #expect(estimate.stdout.contains("parks"))
        let plan = CLI.run(["tiles", Self.area, "--from", Self.tiles, "--zoom", "0-3", "--dry-run", "--quiet"])
        #expect(plan.stdout.contains("total: "), "\(plan.stdout)")
        let copy = CLI.run(["tiles", Self.area, "--from", Self.tiles, "--zoom", "0-3", "-o", dir.path("t.mbtiles"), "-q"])
        #expect(copy.exitCode == 0 && copy.stdout == "" && copy.stderr == "", "\(copy.stdout)\(copy.stderr)")
        #expect(CLI.run(["source", "status", source, "-q"]).stdout == CLI.run(["source", "status", source]).stdout)
    }

    @Test func quietDrawsNoProgressEvenOnATerminal() throws {
        let dir = try TemporaryDirectory()
        let source = try dir.copy(testdata: "demo/alaska_source.gpkg")
        let arguments = ["create", Self.area, "--features", source, "--tiles", Self.tiles, "--zoom", "0-3"]
        let drawn = CLI.run(arguments + ["-o", dir.path("a.pkg")], isTerminal: true)
        #expect(drawn.stderr.contains("\rfeatures  ") && drawn.stderr.contains("\rtiles ["), "\(drawn.stderr)")
        let quiet = CLI.run(arguments + ["-o", dir.path("b.pkg"), "-q"], isTerminal: true)
        #expect(quiet.exitCode == 0 && quiet.stderr == "", "\(quiet.stderr)")
    }

    @Test func sourceEnableIsSilentUnderQuiet() throws {
        let dir = try TemporaryDirectory()
        let source = try dir.copy(testdata: "ne_parks.gpkg")
        let quiet = CLI.run(["source", "enable", source, "--quiet"])
        #expect(quiet.exitCode == 0 && quiet.stdout == "" && quiet.stderr == "", "\(quiet.stdout)\(quiet.stderr)")
        #expect(try sqliteScalar(source, "SELECT count(*) FROM parks WHERE globalid IS NULL") == "0")
    }

    @Test func verboseSaysWhatItUnderstoodAndHowLongItTook() throws {
        let dir = try TemporaryDirectory()
        let source = try dir.copy(testdata: "demo/alaska_source.gpkg")
        let verbose = CLI.run(["estimate", Self.area, "--features", source, "--layer", "parks", "--tiles", Self.tiles,
                               "--zoom", "0-3", "--verbose"])
        #expect(verbose.exitCode == 0, "\(verbose.stderr)")
        #expect(verbose.stderr.contains("Area: -153.5,60.8,-147.5,64.3 in EPSG:4326\n"), "\(verbose.stderr)")
        #expect(verbose.stderr.contains("Features: \(source), layers parks, with related rows\n"))
        #expect(verbose.stderr.contains("Basemap: \(Self.tiles) at zoom 0-3"))
        #expect(verbose.stderr.range(of: #"pkgbuild estimate: \d+\.\d\d s\n$"#, options: .regularExpression) != nil)
        // Details go to stderr: stdout is the same as without --verbose.
        let plain = CLI.run(["estimate", Self.area, "--features", source, "--layer", "parks", "--tiles", Self.tiles,
                             "--zoom", "0-3"])
        #expect(verbose.stdout == plain.stdout)
        #expect(plain.stderr == "")
        let sync = CLI.run(["create", Self.area, "--features", source, "-o", dir.path("v.pkg"), "-q"])
        #expect(sync.exitCode == 0)
        let verboseSync = CLI.run(["sync", dir.path("v.pkg"), "-v", "--direction", "upload"])
        #expect(verboseSync.stderr.contains("direction: upload; on conflict: fail"), "\(verboseSync.stderr)")
    }
}

/// `(exit code, stdout, stderr)` compared in one expectation.
private func == (result: CLIResult, expected: (Int32, String, String)) -> Bool {
    result.exitCode == expected.0 && result.stdout == expected.1 && result.stderr == expected.2
}
