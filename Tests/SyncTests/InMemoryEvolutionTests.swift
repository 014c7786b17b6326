import Foundation
import Geodatabase
import PackageFormat
import SourceDrivers
@testable import Sync
import TestSupport
import Testing

/// The registry and the schema changing under a package, with both drivers: a re-attach after
/// the replica was unregistered, a column added at the source.
@Suite struct InMemoryEvolutionTests {
    @Test(arguments: SourceBackend.available)
    func anUnregisteredPackageIsRefusedThenReattachesAndSyncsOn(_ backend: SourceBackend) throws {
        let f = try SourceBackendFixture(backend)
        let old = try f.packageReplicaID()
        try f.unregisterAtSource(old)
        let refused = try #require(throws: SyncError.self) { try f.sync() }
        #expect(refused.kind == .unregistered && refused.message.contains("was unregistered"), "\(refused)")

        var options = f.options()
        options.reattach = true
        let reattached = try SyncSession(package: f.url, options: options).run()
        #expect(reattached.status == .completed && reattached.conflicts.isEmpty, "\(reattached)")
        let renewed = try f.packageReplicaID()
        #expect(renewed != old)
        let source = try f.registry.openSyncSource(f.address, options: SourceOpenOptions(readOnly: true))
        #expect(try source.retiredReplica(id: old)?.successorID == renewed)
        #expect(try source.replica(id: renewed) != nil)

        try ogrSQL(f.data, "UPDATE airports SET type = 'after' WHERE name = 'Kodiak'")
        #expect(try f.sync().status == .completed)
        #expect(try f.sourceValue("airports", named: "Kodiak", "type") == .text("after"))
    }

    @Test(arguments: SourceBackend.available)
    func aColumnAddedAtTheSourceReachesThePackage(_ backend: SourceBackend) throws {
        let f = try SourceBackendFixture(backend)
        try ogrSQL(f.data, "UPDATE airports SET type = 'offline edit' WHERE name = 'Kodiak'")
        try f.addSourceColumn("runway", type: "TEXT", baseType: .text, to: "airports")
        try f.officeUpdate("airports", named: "Kodiak", set: "runway", to: .text("K-1"))
        let report = try f.sync()
        #expect(report.status == .completed, "\(report)")
        #expect(try f.packageValue("airports", named: "Kodiak", "runway") == "'K-1'")
        #expect(try f.sourceValue("airports", named: "Kodiak", "type") == .text("offline edit"))
        // An offline edit of the new column goes up.
        try ogrSQL(f.data, "UPDATE airports SET runway = 'A-8' WHERE name LIKE 'Anchorage%'")
        #expect(try f.sync().status == .completed)
        #expect(try f.sourceValue("airports", named: "Anchorage Int'l", "runway") == .text("A-8"))
        #expect(try f.verify().differences.isEmpty)
    }
}
