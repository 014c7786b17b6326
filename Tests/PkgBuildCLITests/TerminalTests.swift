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

    /// The progress bars' marks: a carriage return redrawing the line, then clearing its end.
    static func hasProgress(_ text: String, _ label: String) -> Bool {
        text.contains("\r\(label) ") && text.contains("\u{1B}[K")
    }

    @Test func progressOnATerminalNeverInAPipe() throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.binary), "build the executable first")
        let dir = try TemporaryDirectory()
        let source = try dir.copy(testdata: "demo/alaska_source.gpkg")
        let tiles = TestData.url("ne_raster_z0-5.mbtiles").path
        func create(_ name: String, _ extra: String = "") -> String {
            "'\(Self.binary)' create --area=-153.5,60.8,-147.5,64.3 --features '\(source)' --tiles '\(tiles)' "
                + "--zoom 0-5 -o '\(dir.path(name))' \(extra)"
        }
        let terminal = try Self.onTerminal(create("t.pkg"))
        #expect(Self.hasProgress(terminal, "features"), "\(terminal)")
        #expect(Self.hasProgress(terminal, "tiles") && terminal.contains("7/7  100%"), "\(terminal)")
        #expect(terminal.contains("Built \(dir.path("t.pkg"))\n"))

        let piped = try runProcess("/bin/sh", ["-c", create("p.pkg")])
        #expect(piped.status == 0, "\(piped.stderr)")
        #expect(piped.stderr == "", "no progress, not even a carriage return, reaches a pipe")
        #expect(!piped.stdout.contains("\r"))
        let quiet = try Self.onTerminal(create("q.pkg", "--quiet"))
        #expect(quiet == "", "\(quiet)")

        // An edit to upload, then sync on a terminal and in a pipe.
        for package in ["t.pkg", "p.pkg"] {
            let edit = try runProcess("ogrinfo", [dir.path(package) + "/data.gpkg", "-sql", "UPDATE parks SET unit_name = 'x'"])
            #expect(edit.status == 0, "\(edit.stderr)")
        }
        // And an office edit at the source to download (the package's own uploads never come back).
        let office = try runProcess("ogrinfo", [source, "-sql", "UPDATE airports SET type = 'office edit'"])
        #expect(office.status == 0, "\(office.stderr)")
        let sync = try Self.onTerminal("'\(Self.binary)' sync '\(dir.path("t.pkg"))'")
        #expect(Self.hasProgress(sync, "upload") && sync.contains("2/2  100%"), "\(sync)")
        #expect(Self.hasProgress(sync, "download"), "\(sync)")
        let pipedSync = try runProcess(Self.binary, ["sync", dir.path("p.pkg")])
        #expect(pipedSync.status == 0 && pipedSync.stderr == "", "\(pipedSync.stderr)")

        let estimate = try Self.onTerminal("'\(Self.binary)' estimate --area=-153.5,60.8,-147.5,64.3 --features '\(source)'")
        #expect(Self.hasProgress(estimate, "features"), "\(estimate)")
        let pipedEstimate = try runProcess(Self.binary, ["estimate", "--area=-153.5,60.8,-147.5,64.3", "--features", source])
        #expect(pipedEstimate.stderr == "" && !pipedEstimate.stdout.contains("\r"))
    }

    @Test func sourceEnableShowsTablesOnATerminal() throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.binary), "build the executable first")
        let dir = try TemporaryDirectory()
        let onTerminal = try dir.copy(testdata: "ne_parks.gpkg")
        let text = try Self.onTerminal("'\(Self.binary)' source enable '\(onTerminal)'")
        let rows = try sqliteScalar(onTerminal, "SELECT count(*) FROM parks")
        #expect(Self.hasProgress(text, "parks") && text.contains("\(rows)/\(rows)  100%"), "\(text)")
        let piped = try runProcess(Self.binary, ["source", "enable", try dir.copy(testdata: "ne_parks.gpkg", as: "piped.gpkg")])
        #expect(piped.status == 0 && piped.stderr == "", "\(piped.stderr)")
    }
}
