import Foundation
@testable import Geodatabase
import Geometry
import PkgBuildCLI
@testable import PostgreSQLSource
import Testing
import TestSupport

/// `source replicas`, `source status` and `source unregister` on a PostgreSQL schema, as on a
/// GeoPackage: the same listings and messages, one schema's replicas only, no password shown.
@Suite(registryNeedsCluster)
struct ReplicaRegistryCLITests {
    /// Two replicas in `public` (one synced), one in `field`, one unregistered, one refusal.
    struct Fixture {
        let db: RegistryDatabase
        let denali: Replica
        let kenai: Replica
        let plots: Replica
        let gone: Replica

        init() throws {
            db = try RegistryDatabase()
            denali = try db.register("denali.pkg")
            kenai = try db.register("kenai.pkg")
            plots = try db.register("plots.pkg", schema: "field")
            gone = try db.register("gone.pkg")
            let registry = db.registry()
            try registry.activateReplica(id: denali.id)
            try registry.recordSync(replicaID: denali.id, syncID: "s1", generation: denali.extractionGeneration)
            try registry.unregisterReplica(id: gone.id, by: "pkgbuild source unregister", successor: nil)
            try registry.noteRefusal(replicaID: gone.id, syncID: "s9",
                                     ReplicaStanding.Refusal(reason: .unregistered, finding: "replica gone"))
        }
    }

    func json(_ text: String) throws -> JSONValue { try JSONValue(parsing: text, source: "output") }

    @Test func replicasListsTheSchemasReplicasThenTheUnregistered() throws {
        let f = try Fixture()
        let listed = CLI.run(["source", "replicas", f.db.address()])
        #expect(listed.exitCode == 0, "\(listed.stderr)")
        let lines = listed.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("REPLICA") == true, "\(listed.stdout)")
        #expect(lines.contains { $0.hasPrefix(f.denali.id) && $0.contains("  denali.pkg  ") && $0.contains("  active  ") })
        #expect(lines.contains { $0.hasPrefix(f.kenai.id) && $0.contains("  pending  ") && $0.contains("  never  ") })
        #expect(!listed.stdout.contains(f.plots.id), "another schema's replica: \(listed.stdout)")
        #expect(listed.stdout.contains("Unregistered replicas") && lines.contains { $0.hasPrefix(f.gone.id) })

        let asJSON = CLI.run(["source", "replicas", f.db.address(), "--json"])
        #expect(asJSON.exitCode == 0, "\(asJSON.stderr)")
        guard case .array(let items) = try json(asJSON.stdout) else { Issue.record("not an array: \(asJSON.stdout)"); return }
        let states = items.map { "\($0["name"]?.stringValue ?? "?"):\($0["state"]?.stringValue ?? "?")" }
        #expect(states == ["denali.pkg:active", "kenai.pkg:pending", "gone.pkg:unregistered"])
        #expect(items.first?["last_sync_id"]?.stringValue == "s1")
        #expect(items.first?["sync_generation"] == .int(f.denali.extractionGeneration))

        let field = CLI.run(["source", "replicas", f.db.address(schema: "field")])
        #expect(field.stdout.contains(f.plots.id) && !field.stdout.contains(f.denali.id), "\(field.stdout)")
    }

    @Test func statusShowsTablesGenerationLogAndRegistry() throws {
        let f = try Fixture()
        try f.db.logChange()
        let status = CLI.run(["source", "status", f.db.address(), "--json"])
        #expect(status.exitCode == 0, "\(status.stderr)")
        let value = try json(status.stdout)
        #expect(value["enabled"] == .bool(true) && value["pruned_before"] == .int(0) && value["change_log_rows"] == .int(1))
        guard case .int(let generation)? = value["generation"] else { Issue.record("no generation: \(status.stdout)"); return }
        let now = try f.db.currentXmin()
        #expect(generation >= f.gone.extractionGeneration && generation <= now)
        guard case .array(let tables)? = value["tables"] else { Issue.record("no tables"); return }
        #expect(tables.map { $0["name"]?.stringValue } == ["parks"])
        #expect(tables.first?["kind"]?.stringValue == "features" && tables.first?["rows"] == .int(2)
                && tables.first?["tracked"] == .bool(true) && tables.first?["global_id_column"]?.stringValue == "globalid")
        guard case .array(let replicas)? = value["replicas"], case .array(let retired)? = value["retired_replicas"],
              case .array(let refused)? = value["refused_syncs"] else { Issue.record("no registry: \(status.stdout)"); return }
        #expect(replicas.compactMap { $0["id"]?.stringValue } == [f.denali.id, f.kenai.id])
        #expect(retired.compactMap { $0["id"]?.stringValue } == [f.gone.id])
        #expect(refused.compactMap { $0["reason"]?.stringValue } == ["unregistered"])

        let text = CLI.run(["source", "status", f.db.address()])
        #expect(text.exitCode == 0, "\(text.stderr)")
        #expect(text.stdout.contains("Sync-enabled, generation ") && text.stdout.contains("change log 1 rows (never pruned)"))
        #expect(text.stdout.contains("\nTables:\n") && text.stdout.contains("\nReplicas:\n") && text.stdout.contains("Refused syncs"))
        #expect(text.stdout.contains("Relationships: none"))
    }

    @Test func unregisterRetiresByNameAndSaysSoASecondTime() throws {
        let f = try Fixture()
        let retired = CLI.run(["source", "unregister", f.db.address(), "kenai"])
        #expect(retired.exitCode == 0, "\(retired.stderr)")
        #expect(retired.stdout.contains("Replica \(f.kenai.id) (kenai.pkg) unregistered from PG:"), "\(retired.stdout)")
        #expect(try f.db.psql("SELECT retired_by FROM pkgbuild.retired_replicas WHERE replica_id = '\(f.kenai.id)'")
                == "pkgbuild source unregister")
        #expect(try f.db.psql("SELECT count(*) FROM pkgbuild.replicas WHERE replica_id = '\(f.kenai.id)'") == "0")
        let again = CLI.run(["source", "unregister", f.db.address(), f.kenai.id])
        #expect(again.exitCode == 1)
        #expect(again.stderr.contains("replica \(f.kenai.id) (kenai.pkg) was already unregistered on "), "\(again.stderr)")
        // Another schema's replica is not this one's to retire.
        let other = CLI.run(["source", "unregister", f.db.address(), f.plots.id])
        #expect(other.exitCode == 1 && other.stderr.contains("has no replica"), "\(other.stderr)")
        #expect(try f.db.psql("SELECT count(*) FROM pkgbuild.replicas WHERE replica_id = '\(f.plots.id)'") == "1")
    }

    @Test func aSchemaNotEnabledIsSaidSoAndNoPasswordIsShown() throws {
        let bare = try PostgreSQLTestDatabase()
        let address = "PG:\(bare.conninfo) password=hunter2"
        let listed = CLI.run(["source", "replicas", address, "--json"])
        #expect(listed.exitCode == 1 && listed.stderr.contains("is not sync-enabled"), "\(listed.stderr)")
        let status = CLI.run(["source", "status", address])
        #expect(status.exitCode == 0, "\(status.stderr)")
        #expect(status.stdout.contains("Not sync-enabled (run 'pkgbuild source enable "), "\(status.stdout)")
        for output in [listed.stdout, listed.stderr, status.stdout, status.stderr] {
            #expect(!output.contains("hunter2"), "\(output)")
        }
    }
}
