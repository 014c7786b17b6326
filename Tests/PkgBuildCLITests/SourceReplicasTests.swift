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

    @Test func unregisterTakesTheIdAsTypedThePackageOrItsName() throws {
        let fixture = try Fixture()
        let denali = try fixture.replicaID(fixture.denali), kodiak = try fixture.replicaID(fixture.kodiak)
        // By the package directory: the message names it in the way back.
        let byPackage = CLI.run(["source", "unregister", fixture.source, fixture.denali])
        #expect(byPackage.exitCode == 0, "\(byPackage.stderr)")
        #expect(byPackage.stdout.contains("Replica \(denali) (denali.pkg) unregistered from \(fixture.source)")
                && byPackage.stdout.contains("run 'pkgbuild sync \(fixture.denali) --reattach'"), "\(byPackage.stdout)")
        #expect(try sqliteScalar(fixture.source, "SELECT count(*) FROM pkgbuild_replicas WHERE replica_id = '\(denali)'") == "0")
        // Again: already unregistered, said with when and by what.
        let again = CLI.run(["source", "unregister", fixture.source, fixture.denali])
        #expect(again.exitCode == 1)
        #expect(again.stderr.contains("replica \(denali) (denali.pkg) was already unregistered on ")
                && again.stderr.contains("by pkgbuild source unregister"), "\(again.stderr)")
        // By its name, as `source replicas` lists it, with or without the .pkg.
        let byName = CLI.run(["source", "unregister", fixture.source, "kodiak"])
        #expect(byName.exitCode == 0, "\(byName.stderr)")
        #expect(byName.stdout.contains("Replica \(kodiak) (kodiak.pkg) unregistered"), "\(byName.stdout)")
        #expect(byName.stdout.contains("'pkgbuild sync PKG --reattach'"), "\(byName.stdout)")
    }

    /// Which replica a package is, data.gpkg says: a package whose manifest.json is damaged (and
    /// whose directory no longer has the name the registry lists) is still that replica.
    @Test func unregisterByAPackageWhoseManifestIsDamaged() throws {
        let fixture = try Fixture()
        let denali = try fixture.replicaID(fixture.denali)
        let moved = (fixture.denali as NSString).deletingLastPathComponent + "/moved.pkg"
        try FileManager.default.moveItem(atPath: fixture.denali, toPath: moved)
        try Data("{not json".utf8).write(to: URL(fileURLWithPath: moved + "/manifest.json"))
        let result = CLI.run(["source", "unregister", fixture.source, moved])
        #expect(result.exitCode == 0, "\(result.stderr)")
        #expect(try sqliteScalar(fixture.source, "SELECT count(*) FROM pkgbuild_replicas WHERE replica_id = '\(denali)'") == "0")
    }

    @Test func unregisterTakesAnIdInAnyCaseWithoutBraces() throws {
        let fixture = try Fixture()
        let id = try fixture.replicaID(fixture.kodiak)
        let typed = id.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "{}"))
        let result = CLI.run(["source", "unregister", fixture.source, typed])
        #expect(result.exitCode == 0, "\(result.stderr)")
        #expect(try sqliteScalar(fixture.source, "SELECT replica_id FROM pkgbuild_retired_replicas") == id)
    }

    @Test func unregisterRefusesWhatNamesNoSingleReplica() throws {
        let fixture = try Fixture()
        let before = try sqliteDump(fixture.source)
        let unknown = CLI.run(["source", "unregister", fixture.source, "nowhere"])
        #expect(unknown.exitCode == 1)
        #expect(unknown.stderr.contains("has no replica 'nowhere'") && unknown.stderr.contains("pkgbuild source replicas"),
                "\(unknown.stderr)")
        #expect(try sqliteDump(fixture.source) == before)
        // Two packages of the same name (in different folders) cannot be told apart by it.
        let other = fixture.directory.path("elsewhere")
        try FileManager.default.createDirectory(atPath: other, withIntermediateDirectories: true)
        let created = CLI.run(["create", "--area=-155,57,-152,58.5", "--features", fixture.source, "-o", other + "/kodiak.pkg"])
        try #require(created.exitCode == 0, "\(created.stderr)")
        let beforeAmbiguous = try sqliteDump(fixture.source)
        let ambiguous = CLI.run(["source", "unregister", fixture.source, "kodiak.pkg"])
        #expect(ambiguous.exitCode == 1)
        #expect(ambiguous.stderr.contains("2 replicas are named 'kodiak.pkg'") && ambiguous.stderr.contains("give the id"),
                "\(ambiguous.stderr)")
        // A package built without registering.
        let unregistered = fixture.directory.path("loose.pkg")
        #expect(CLI.run(["create", "--area=-155,57,-152,58.5", "--features", fixture.source, "--no-register", "-o", unregistered]).exitCode == 0)
        let loose = CLI.run(["source", "unregister", fixture.source, unregistered])
        #expect(loose.exitCode == 1 && loose.stderr.contains("built with --no-register"), "\(loose.stderr)")
        #expect(try sqliteDump(fixture.source) == beforeAmbiguous)
    }

    /// An unregistered replica is not a dead end: `source replicas` lists it with when and by
    /// what, and its package's sync is refused pointing to `sync --reattach`, which works.
    @Test func unregisteredReplicasAreListedWithTheWayBack() throws {
        let fixture = try Fixture()
        let denali = try fixture.replicaID(fixture.denali), kodiak = try fixture.replicaID(fixture.kodiak)
        #expect(CLI.run(["source", "unregister", fixture.source, denali]).exitCode == 0)
        let retiredAt = try sqliteScalar(fixture.source, "SELECT retired_at FROM pkgbuild_retired_replicas WHERE replica_id = '\(denali)'")
        #expect(!retiredAt.isEmpty)

        let listed = CLI.run(["source", "replicas", fixture.source])
        #expect(listed.exitCode == 0, "\(listed.stderr)")
        let sections = listed.stdout.components(separatedBy: "\nUnregistered replicas")
        try #require(sections.count == 2, "\(listed.stdout)")
        #expect(sections[0].contains(kodiak) && !sections[0].contains(denali), "\(listed.stdout)")
        let row = try #require(sections[1].split(separator: "\n").first { $0.hasPrefix(denali) }, "\(listed.stdout)")
        #expect(row.contains("denali.pkg") && row.contains(retiredAt) && row.contains("pkgbuild source unregister"), "\(row)")
        #expect(sections[1].contains("--reattach"), "\(sections[1])")

        let json = CLI.run(["source", "replicas", fixture.source, "--json"])
        let entries = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
        let entry = try #require(entries.first { $0["id"] as? String == denali }, "\(json.stdout)")
        #expect(entry["state"] as? String == "unregistered" && entry["retired_at"] as? String == retiredAt
                && entry["retired_by"] as? String == "pkgbuild source unregister" && entry["name"] as? String == "denali.pkg")
        #expect(entries.first { $0["id"] as? String == kodiak }?["state"] as? String == "active")

        // The package's next sync is refused, naming the command that brings it back; that command works.
        let refused = CLI.run(["sync", fixture.denali])
        #expect(refused.exitCode == 1)
        #expect(refused.stderr.contains("replica \(denali) was unregistered at the source on \(retiredAt) by pkgbuild source unregister")
                && refused.stderr.contains("run 'pkgbuild sync \(fixture.denali) --reattach'"), "\(refused.stderr)")
        let reattached = CLI.run(["sync", fixture.denali, "--reattach"])
        #expect(reattached.exitCode == 0, "\(reattached.stdout) \(reattached.stderr)")
        #expect(CLI.run(["source", "replicas", fixture.source]).stdout.contains(try fixture.replicaID(fixture.denali)))
    }

    @Test func noRegisteredReplicasStillListsTheUnregistered() throws {
        let fixture = try Fixture()
        for package in [fixture.denali, fixture.kodiak] {
            #expect(CLI.run(["source", "unregister", fixture.source, package]).exitCode == 0)
        }
        let listed = CLI.run(["source", "replicas", fixture.source])
        #expect(listed.stdout.hasPrefix("No replicas are registered at \(fixture.source).\n\nUnregistered replicas"), "\(listed.stdout)")
        #expect(listed.stdout.contains("denali.pkg") && listed.stdout.contains("kodiak.pkg"))
    }
}
