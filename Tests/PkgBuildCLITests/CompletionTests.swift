import Foundation
import Testing
import TestSupport
@testable import PkgBuildCLI

/// The completion scripts, run in the shells they are for: completions must come out of the
/// command tree (subcommands, options, enum values, pairs), not from a list kept by hand.
@Suite struct CompletionTests {
    /// The script for `shell`, written to a temporary file for the shell to source.
    private func scriptFile(_ shell: String) throws -> URL {
        let result = CLI.run(["completion", shell])
        try #require(result.exitCode == 0, "\(result.stderr)")
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("pkgbuild-completion-\(UUID().uuidString).\(shell)")
        try result.stdout.write(to: url, atomically: true, encoding: .utf8)
        return url
    }

    /// What bash's `_pkgbuild` offers for the words typed, the last being the one completed.
    private func bashCompletions(_ words: [String]) throws -> [String] {
        let script = try scriptFile("bash")
        defer { try? FileManager.default.removeItem(at: script) }
        let quoted = words.map { "'\($0)'" }.joined(separator: " ")
        let run = try runProcess("/bin/bash", ["-c", """
            source '\(script.path)'; COMP_WORDS=(\(quoted)); COMP_CWORD=\(words.count - 1); _pkgbuild
            printf '%s\\n' "${COMPREPLY[@]}"
            """])
        try #require(run.status == 0, "\(run.stderr)")
        #expect(run.stderr == "")
        return run.stdout.split(separator: "\n").map(String.init)
    }

    @Test(arguments: [
        (["pkgbuild", "sy"], ["sync"]),
        (["pkgbuild", "source", "e"], ["enable"]),
        (["pkgbuild", "sync", "--di"], ["--direction"]),
        (["pkgbuild", "sync", "--direction", ""], ["bidirectional", "upload", "download"]),
        (["pkgbuild", "resolve", "--take", "p"], ["package"]),
        (["pkgbuild", "create", "--no-re"], ["--no-related", "--no-register"]),
        (["pkgbuild", "source", "relate", "--cardinality", "one"], ["one-to-one", "one-to-many"]),
        (["pkgbuild", "completion", ""], ["bash", "zsh", "fish"]),
        (["pkgbuild", "tiles", "--qu"], ["--quiet"]),
        (["pkgbuild", "help", "ver"], ["verify"]),
    ])
    func bashCompletesFromTheCommandTree(words: [String], expected: [String]) throws {
        #expect(try bashCompletions(words) == expected)
    }

    @Test func bashCompletesEveryCommandAndOption() throws {
        let all = try bashCompletions(["pkgbuild", ""])
        #expect(all == PkgBuild.subcommands.map { $0.configuration.name } + ["help"])
        let options = try bashCompletions(["pkgbuild", "tiles", "-"])
        for definition in TilesCommand.configuration.arguments where !definition.isPositional {
            #expect(options.contains("--\(definition.name)"), "--\(definition.name)")
        }
    }

    @Test func bashCompletesFileNamesForPathValues() throws {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("completion-files-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("parks.gpkg")
        try Data().write(to: file)
        #expect(try bashCompletions(["pkgbuild", "create", "--features", directory.path + "/pa"]) == [file.path])
        #expect(try bashCompletions(["pkgbuild", "inspect", directory.path + "/pa"]) == [file.path])
    }

    @Test func zshScriptParsesAndWalksTheTree() throws {
        let zsh = "/usr/bin/zsh"
        let script = try scriptFile("zsh")
        defer { try? FileManager.default.removeItem(at: script) }
        let text = try String(contentsOf: script, encoding: .utf8)
        #expect(text.hasPrefix("#compdef pkgbuild\n"))
        #expect(text.contains("\"--direction:Which way changes travel\""))
        guard FileManager.default.isExecutableFile(atPath: zsh) else { return }
        #expect(try runProcess(zsh, ["-n", script.path]).status == 0)
        // Completion's builtins stand in for themselves: each prints what it was given.
        let run = try runProcess(zsh, ["-fc", """
            compdef() { :; }; _files() { print FILES; }
            _describe() { local -a entries; entries=("${(@P)4}"); print -l -- "${entries[@]%%:*}"; }
            compadd() { shift; print -l -- "$@"; }
            source '\(script.path)'
            words=(pkgbuild sync --direction ''); CURRENT=4; _pkgbuild
            words=(pkgbuild source ''); CURRENT=3; _pkgbuild
            """])
        #expect(run.stderr == "")
        #expect(run.stdout == "bidirectional\nupload\ndownload\nenable\nrelate\nstatus\nreplicas\nunregister\nprune\n")
    }

    @Test func fishCompletesFromTheCommandTree() throws {
        let fish = "/usr/bin/fish"
        let script = try scriptFile("fish")
        defer { try? FileManager.default.removeItem(at: script) }
        let text = try String(contentsOf: script, encoding: .utf8)
        #expect(text.contains("-l direction -x -a 'bidirectional upload download'"))
        guard FileManager.default.isExecutableFile(atPath: fish) else { return }
        #expect(try runProcess(fish, ["--no-execute", script.path]).status == 0)
        let run = try runProcess(fish, ["--no-config", "-c", """
            source '\(script.path)'; complete -C 'pkgbuild sy'; complete -C 'pkgbuild sync --direction '
            complete -C 'pkgbuild source relate --no'
            """])
        #expect(run.stderr == "")
        let words = run.stdout.split(separator: "\n").map { String($0.split(separator: "\t")[0]) }
        #expect(words == ["sync", "bidirectional", "download", "upload"])
    }
}
