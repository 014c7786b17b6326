import Foundation
import PackageFormat
import Testing
import TestSupport
@testable import Extract

@Suite struct PackageDirectoryTests {
    /// What marks a directory as a package `--force` may replace: pkgbuild's manifest and a
    /// data.gpkg with its pkgbuild_package table.
    func writeMinimalPackage(_ package: PackageDirectory) throws {
        let manifest = PackageManifest(tool: .init(name: "pkgbuild", version: "0"), created: "2026-01-01T00:00:00Z",
                                       replicaID: "r", source: .init(kind: "geopackage", location: "/nowhere", generation: nil),
                                       area: .init(geojson: .null, wkt: "POINT (0 0)", crs: "EPSG:4326"), layers: [], tiles: nil,
                                       files: [:])
        try manifest.encoded().write(to: package.manifestURL)
        let made = try runProcess("sqlite3", [package.dataURL.path, "CREATE TABLE pkgbuild_package (key TEXT PRIMARY KEY, value TEXT)"])
        #expect(made.status == 0, "\(made.stderr)")
    }

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
        try writeMinimalPackage(first)
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
        // The second has no manifest: it is not a package, and the next --force is refused.
        let refused = #expect(throws: ExtractError.self) {
            try PackageDirectory.open(output: output, fingerprint: "c", force: true)
        }
        #expect(refused?.message.contains("not a pkgbuild package") == true, "\(String(describing: refused))")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: dir.url.path)
        #expect(leftovers == ["area.pkg"])
    }

    /// A build killed between its rename and removing its own files leaves them in the package:
    /// before the rename they must still be in the `.partial` (a re-run resumes it and retires
    /// its replica), so they are removed only after it, and `--force` may replace such a package.
    @Test func theBuildsOwnFilesGoOnlyAfterTheRenameAndDoNotBlockAReplacement() throws {
        let dir = try TemporaryDirectory()
        let output = dir.url.appendingPathComponent("area.pkg")
        let first = try PackageDirectory.open(output: output, fingerprint: "a", force: false)
        try writeMinimalPackage(first)
        try first.recordPendingReplica(id: "r", source: "/nowhere")
        try first.commit()
        for name in [PackageDirectory.stateFileName, PackageDirectory.pendingReplicaFileName] {
            #expect(!FileManager.default.fileExists(atPath: output.appendingPathComponent(name).path), "\(name)")
            // As a kill just after the rename leaves it.
            try Data("{}".utf8).write(to: output.appendingPathComponent(name))
        }
        let second = try PackageDirectory.open(output: output, fingerprint: "b", force: true)
        try writeMinimalPackage(second)
        try second.commit()
        #expect(try FileManager.default.contentsOfDirectory(atPath: output.path).sorted() == ["data.gpkg", "manifest.json"])
    }

    @Test func refusesAtCommitWhatChangedDuringTheBuild() throws {
        let dir = try TemporaryDirectory()
        let output = dir.url.appendingPathComponent("area.pkg")
        let first = try PackageDirectory.open(output: output, fingerprint: "a", force: false)
        try writeMinimalPackage(first)
        try first.commit()
        let second = try PackageDirectory.open(output: output, fingerprint: "b", force: true)
        try writeMinimalPackage(second)
        // While the new package is built, someone puts a file of theirs into the old one.
        try Data("photo".utf8).write(to: output.appendingPathComponent("photo.jpg"))
        let error = #expect(throws: ExtractError.self) { try second.commit() }
        #expect(error?.message.contains("photo.jpg") == true, "\(String(describing: error))")
        #expect(try String(contentsOf: output.appendingPathComponent("photo.jpg"), encoding: .utf8) == "photo")
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
