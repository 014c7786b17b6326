import Foundation
import Testing
import TestSupport
import PkgBuildCLI

/// The built executable on a real pseudo-terminal (util-linux `script`), against the same in a
/// pipe: what depends on a terminal (width, progress) must follow the terminal, not guess.
@Suite struct TerminalTests {
    static let binary = ExecutableTests.binary

    /// Runs a shell command line on a fresh pseudo-terminal; the terminal's `\r\n` become `\n`.
    static func onTerminal(_ commandLine: String) throws -> String {
        let run = try runProcess("/usr/bin/script", ["-qec", commandLine, "/dev/null"])
        return run.stdout.replacingOccurrences(of: "\r\n", with: "\n")
    }

    static func widest(_ text: String) -> Int {
        text.split(separator: "\n").map(\.count).max() ?? 0
    }

    @Test func helpWrapsToTheTerminalsColumns() throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.binary), "build the executable first")
        let wide = try Self.onTerminal("stty cols 120; '\(Self.binary)' help create")
        #expect(wide.hasPrefix("OVERVIEW: "))
        #expect(Self.widest(wide) <= 120 && Self.widest(wide) > 100, "\(wide)")
        let narrow = try Self.onTerminal("stty cols 60; '\(Self.binary)' help create")
        #expect(Self.widest(narrow) <= 60 && Self.widest(narrow) > 50, "\(narrow)")
        // In a pipe there is no terminal to ask: 80, whatever the terminal the tests run in.
        let piped = try runProcess(Self.binary, ["help", "create"], environment: ["COLUMNS": ""])
        #expect(Self.widest(piped.stdout) <= 80 && Self.widest(piped.stdout) > 70)
    }

    @Test func bashCompletionOfTheExecutable() throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.binary), "build the executable first")
        let run = try runProcess("/bin/bash", ["-c", """
            source <('\(Self.binary)' completion bash); COMP_WORDS=(pkgbuild sy); COMP_CWORD=1; _pkgbuild
            echo ${COMPREPLY[@]}; COMP_WORDS=(pkgbuild sync --on-c); COMP_CWORD=2; _pkgbuild; echo ${COMPREPLY[@]}
            """])
        #expect(run.stdout == "sync\n--on-conflict\n", "\(run.stderr)")
    }
}
