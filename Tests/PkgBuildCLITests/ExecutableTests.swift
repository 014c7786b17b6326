import Foundation
import Testing
import TestSupport
import PkgBuildCLI

/// The built executable, run as a subprocess, proves that main.swift wires the library.
/// `swift test` builds it along with the tests.
@Suite struct ExecutableTests {
    static let binary = TestData.root.appendingPathComponent(".build/debug/pkgbuild").path

    @Test func helpAndUnknownOption() throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.binary),
                     "build the executable first: swift build")
        let help = try runProcess(Self.binary, ["--help"])
        #expect(help.status == 0)
        #expect(help.stdout.hasPrefix("OVERVIEW: "))
        #expect(help.stdout.contains("USAGE: pkgbuild <subcommand>"))

        let version = try runProcess(Self.binary, ["--version"])
        #expect(version.stdout == PkgBuildVersion.current + "\n")

        let unknown = try runProcess(Self.binary, ["--no-such-option"])
        #expect(unknown.status == 64)
        #expect(unknown.stdout == "")
        #expect(unknown.stderr.hasPrefix("Error: Unknown option '--no-such-option'\nUsage: pkgbuild"))
    }
}
