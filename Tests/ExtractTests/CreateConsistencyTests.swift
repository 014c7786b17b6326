import Foundation
import Geodatabase
import PackageFormat
import SQLite
import TestSupport
import Testing
import Extract

/// `create` under concurrent edits and crashes, through its checkpoints: the package holds
/// one generation of the source, and a replica is never active without its package.
@Suite struct CreateConsistencyTests {
    init() { registerSourceDrivers() }

    /// Alaska, with its parks and many airports.
    static let area = "-170,52,-130,72"
    static let validator = GDALValidator.script
    static let layers = ["parks", "park_visitors", "airports"]

    /// Every row of the layers as "table globalid name-or-unit", sorted.
    static func rows(_ path: String) throws -> [String] {
        let c = try Connection(path: path, mode: .readOnly)
        var rows: [String] = []
        for (table, column) in [("parks", "unit_code"), ("park_visitors", "annual_visitors"), ("airports", "name")] {
            for row in try c.query("SELECT globalid, \(column) FROM \(table)") {
                rows.append("\(table) \(row[0].stringValue ?? "?") \(row[1].stringValue ?? "NULL")")
            }
        }
        return rows.sorted()
    }

    static func request(_ source: String, _ output: String, register: Bool = true) -> ExtractRequest {
        ExtractRequest(area: area, source: source, register: register, output: output)
    }

    /// The edits made while the extraction reads: an update and a delete of rows the area
    /// holds, an insert inside it (a copy of one of its airports).
    static func edit(_ source: String, busyTimeout: Double, airports: [String]) throws {
        let c = try GeoPackage(path: source, busyTimeout: busyTimeout).connection
        try c.withTransaction(.immediate) {
            try c.execute("UPDATE airports SET name = 'renamed meanwhile' WHERE globalid = ?", [.text(airports[0])])
            try c.execute("DELETE FROM airports WHERE globalid = ?", [.text(airports[1])])
            try c.execute("INSERT INTO airports (geom, name) SELECT geom, 'inserted meanwhile' FROM airports WHERE globalid = ?",
                          [.text(airports[2])])
        }
    }

    /// An uninterrupted, unregistered build of the same source first; then a build during
    /// which another connection commits edits to rows in the area, right after the read
    /// transaction opened. In WAL mode the writer commits at once and the package still
    /// equals the first build, at the generation before the edits (the change log names
    /// exactly the edited rows after it). In rollback-journal mode the writer waits for its
    /// busy timeout and fails cleanly; the source stays intact and unchanged.
    @Test(arguments: [true, false])
    func editsDuringTheReadAreNotInThePackage(wal: Bool) throws {
        let dir = try TemporaryDirectory()
        let source = try dir.copy(testdata: "demo/alaska_source.gpkg")
        if wal { try Connection(path: source).setJournalMode(.wal) }
        let baseline = try Extractor.create(Self.request(source, dir.path("baseline.pkg"), register: false))
        let expected = try Self.rows(dir.path("baseline.pkg/data.gpkg"))
        let airports = expected.filter { $0.hasPrefix("airports ") }.map { String($0.split(separator: " ")[1]) }
        try #require(airports.count >= 3)

        let outcome = EditOutcome()
        let result = try Extractor.create(Self.request(source, dir.path("a.pkg")), checkpoint: { point in
            guard point == .snapshotRead else { return }
            let began = Date()
            do { try Self.edit(source, busyTimeout: wal ? 0 : 0.5, airports: airports) } catch { outcome.error = error }
            outcome.seconds = Date().timeIntervalSince(began)
        })
        #expect(result.generation == baseline.generation)
        #expect(try Self.rows(dir.path("a.pkg/data.gpkg")) == expected)
        let validation = try runProcess("/usr/bin/python3", [Self.validator, dir.path("a.pkg/data.gpkg")])
        #expect(validation.status == 0 && validation.stdout.isEmpty && validation.stderr.isEmpty, "\(validation.stdout)\(validation.stderr)")

        let s = SourceGeodatabase(try GeoPackage(path: source))
        #expect(try s.connection.scalar("PRAGMA integrity_check")?.stringValue == "ok")
        let generation = try #require(result.generation)
        let later = try s.connection.query("SELECT table_name, globalid, operation FROM pkgbuild_changes WHERE generation > ? ORDER BY 1, 2",
                                           [.integer(generation)])
        if wal {
            #expect(outcome.error == nil, "the writer was blocked: \(String(describing: outcome.error))")
            #expect(outcome.seconds < 2)
            // The rows changed after the recorded generation are exactly the edits, and the
            // package holds them as they were before.
            let edited = later.map { "\($0[0].stringValue ?? "") \($0[2].stringValue ?? "")" }.sorted()
            #expect(edited == ["airports delete", "airports insert", "airports update"])
            let changedIDs = Set(later.compactMap { $0[1].stringValue })
            #expect(changedIDs.isSuperset(of: airports[0...1]))
            #expect(try s.generation() > generation)
        } else {
            let error = try #require(outcome.error as? SQLiteError, "the writer committed under the read lock")
            #expect(error.isBusy, "\(error)")
            #expect(outcome.seconds >= 0.4 && outcome.seconds < 5)
            #expect(later.isEmpty)
            #expect(try Self.rows(source).filter { $0.contains("meanwhile") }.isEmpty)
        }
        #expect(try s.replicas().map(\.state) == [.active])
    }

    /// A crash after the replica is registered as pending and before the package is renamed:
    /// nothing under the final name, the replica shows as pending; a re-run of the same
    /// command completes and unregisters the abandoned replica, leaving one active replica,
    /// the package's.
    @Test func crashBetweenRegistrationAndRenameLeavesAPendingReplicaTheReRunRetires() throws {
        let dir = try TemporaryDirectory()
        let source = try dir.copy(testdata: "demo/alaska_source.gpkg")
        let output = dir.path("a.pkg")
        #expect(throws: SimulatedCrash.self) {
            try Extractor.create(Self.request(source, output), checkpoint: { if $0 == .registered { throw SimulatedCrash() } })
        }
        #expect(!FileManager.default.fileExists(atPath: output))
        let s = SourceGeodatabase(try GeoPackage(path: source))
        let orphan = try #require(try s.replicas().first)
        #expect(try s.replicas().count == 1)
        #expect(orphan.state == .pending)

        let result = try Extractor.create(Self.request(source, output))
        #expect(result.warnings.contains { $0.contains("unregistered replica \(orphan.id)") }, "\(result.warnings)")
        let replicas = try s.replicas()
        #expect(replicas.map(\.id) == [result.replicaID])
        #expect(replicas.map(\.state) == [.active])
        #expect(FileManager.default.fileExists(atPath: output + "/manifest.json"))
        #expect(!FileManager.default.fileExists(atPath: output + "/" + PackageDirectory.pendingReplicaFileName))
        #expect(!FileManager.default.fileExists(atPath: output + "/" + PackageDirectory.stateFileName))
    }

    /// A different command for the same output throws the interrupted run's work away, and
    /// its pending replica with it.
    @Test func aDifferentReRunAlsoRetiresTheAbandonedReplica() throws {
        let dir = try TemporaryDirectory()
        let source = try dir.copy(testdata: "demo/alaska_source.gpkg")
        let output = dir.path("a.pkg")
        #expect(throws: SimulatedCrash.self) {
            try Extractor.create(Self.request(source, output), checkpoint: { if $0 == .registered { throw SimulatedCrash() } })
        }
        let s = SourceGeodatabase(try GeoPackage(path: source))
        let orphan = try #require(try s.replicas().first)
        #expect(try s.replicas().map(\.state) == [.pending])
        var other = Self.request(source, output)
        other.clip = true
        let result = try Extractor.create(other)
        #expect(result.warnings.contains { $0.contains("unregistered replica \(orphan.id)") }, "\(result.warnings)")
        #expect(try s.replicas().map(\.id) == [result.replicaID])
    }

    /// A crash after the rename and before activation: the package is complete under its
    /// name and its replica stays pending (shown by `source status`); a re-run refuses to
    /// overwrite the package without --force, and leaves the replica alone.
    @Test func crashAfterTheRenameLeavesACompletePackageAndAPendingReplica() throws {
        let dir = try TemporaryDirectory()
        let source = try dir.copy(testdata: "demo/alaska_source.gpkg")
        let output = dir.path("a.pkg")
        #expect(throws: SimulatedCrash.self) {
            try Extractor.create(Self.request(source, output), checkpoint: { if $0 == .renamed { throw SimulatedCrash() } })
        }
        let manifest = try PackageManifest.read(from: URL(fileURLWithPath: output + "/manifest.json"))
        let s = SourceGeodatabase(try GeoPackage(path: source))
        #expect(try s.replicas().map(\.id) == [manifest.replicaID])
        #expect(try s.replicas().map(\.state) == [.pending])
        #expect(throws: ExtractError.self) { try Extractor.create(Self.request(source, output)) }
        #expect(try s.replicas().map(\.state) == [.pending])
    }
}

struct SimulatedCrash: Error {}

/// What the concurrent writer met, read after the build.
final class EditOutcome: @unchecked Sendable {
    var error: Error?
    var seconds: TimeInterval = 0
}
