import Foundation
import Testing
import TestSupport
@testable import Extract

@Suite struct PackageDirectoryTests {
    @Test func appearsUnderItsNameOnlyWhenCommitted() throws {
        let dir = try TemporaryDirectory()
        let output = dir.url.appendingPathComponent("area.pkg")
        let package = try PackageDirectory.open(output: output, fingerprint: "a", force: false)
        try Data("x".utf8).write(to: package.dataURL)
        #expect(!FileManager.default.fileExists(atPath: output.path))
        try package.commit()
        #expect(FileManager.default.fileExists(atPath: output.appendingPathComponent("data.gpkg").path))
        #expect(!FileManager.default.fileExists(atPath: output.appendingPathComponent("build.json").path))
        #expect(!FileManager.default.fileExists(atPath: package.stagingURL.path))
    }

    @Test func refusesAnExistingOutputWithoutForceAndSwapsWithIt() throws {
        let dir = try TemporaryDirectory()
        let output = dir.url.appendingPathComponent("area.pkg")
        let first = try PackageDirectory.open(output: output, fingerprint: "a", force: false)
        try Data("old".utf8).write(to: first.dataURL)
        try first.commit()
        let error = #expect(throws: ExtractError.self) {
            try PackageDirectory.open(output: output, fingerprint: "a", force: false)
        }
        #expect(error?.kind == .output)
        #expect(error?.message.contains("--force") == true)
        let second = try PackageDirectory.open(output: output, fingerprint: "b", force: true)
        try Data("new".utf8).write(to: second.dataURL)
        try second.commit()
        #expect(try String(contentsOf: output.appendingPathComponent("data.gpkg"), encoding: .utf8) == "new")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: dir.url.path)
        #expect(leftovers == ["area.pkg"])
    }

    @Test func resumesTheSameRequestAndDiscardsAnother() throws {
        let dir = try TemporaryDirectory()
        let output = dir.url.appendingPathComponent("area.pkg")
        let interrupted = try PackageDirectory.open(output: output, fingerprint: "a", force: false)
        try Data("tiles".utf8).write(to: interrupted.basemapURL)
        try Data("half".utf8).write(to: interrupted.dataURL)
        let again = try PackageDirectory.open(output: output, fingerprint: "a", force: false)
        #expect(again.resumed)
        #expect(FileManager.default.fileExists(atPath: again.basemapURL.path))
        #expect(!FileManager.default.fileExists(atPath: again.dataURL.path))
        let other = try PackageDirectory.open(output: output, fingerprint: "b", force: false)
        #expect(!other.resumed)
        #expect(!FileManager.default.fileExists(atPath: other.basemapURL.path))
    }
}
