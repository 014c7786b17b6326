import Foundation
import PkgBuildCLI
import Testing
import TestSupport

/// `source replicas` and `source unregister` as an administrator uses them: names as `status`
/// shows them, a replica named by its id, its package or its name, and unregistered replicas
/// listed with when, by what and the way back.
@Suite struct SourceReplicasTests {
    /// An enabled copy of the demo source with two packages built from it.
    struct Fixture {
        let directory: TemporaryDirectory
        let source: String
        let denali: String
        let kodiak: String

        init() throws {
            directory = try TemporaryDirectory("pkgbuild-replicas")
            source = try directory.copy(testdata: "demo/alaska_source.gpkg", as: "source.gpkg")
            denali = directory.path("denali.pkg")
            kodiak = directory.path("kodiak.pkg")
            for (package, area) in [(denali, "-153.5,60.8,-147.5,64.3"), (kodiak, "-155,57,-152,58.5")] {
                let created = CLI.run(["create", "--area=\(area)", "--features", source, "-o", package])
                guard created.exitCode == 0 else { throw TestSupportError("create failed: \(created.stderr)") }
            }
        }

        /// The replica id a package was registered under, as its data.gpkg records it.
        func replicaID(_ package: String) throws -> String {
            try sqliteScalar(package + "/data.gpkg", "SELECT value FROM pkgbuild_package WHERE key = 'replica_id'")
        }
    }

    @Test func replicasListsTheNameStatusShows() throws {
        let fixture = try Fixture()
        let listed = CLI.run(["source", "replicas", fixture.source])
        #expect(listed.exitCode == 0, "\(listed.stderr)")
        let lines = listed.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("REPLICA") == true && lines.first?.contains("  NAME  ") == true, "\(listed.stdout)")
        for package in [fixture.denali, fixture.kodiak] {
            let id = try fixture.replicaID(package)
            let name = (package as NSString).lastPathComponent
            #expect(lines.contains { $0.hasPrefix(id) && $0.contains("  \(name)  ") }, "\(name) in \(listed.stdout)")
            #expect(try sqliteScalar(fixture.source, "SELECT name FROM pkgbuild_replicas WHERE replica_id = '\(id)'") == name)
        }
    }
}
