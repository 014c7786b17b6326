import Foundation
import GeoPackageSource
import PackageFormat
import PkgBuildCLI
@testable import PostgreSQLSource
import SourceDrivers
import Testing
import TestSupport

/// The conflicts a sync recorded at the source come back as they went in, and as a GeoPackage
/// source gives them back: every field, an exchange's other rows, NULLs kept NULL.
@Suite(registryNeedsCluster)
struct ReplicaRegistryConflictsTests {
    static let conflicts = [
        Conflict(table: "parks", globalID: "{A1}", column: "name", kind: .bothChanged, baseValue: "Denali",
                 packageValue: "Denali NP", sourceValue: "Denali National Park", resolution: .source, resolvedBy: "policy"),
        Conflict(table: "parks", globalID: "{B2}", column: nil, kind: .constraint, packageValue: "Kenai",
                 message: "UNIQUE constraint failed: parks.name", otherRows: ["{C3}", "{D4}"]),
        Conflict(table: "plots", globalID: "{E5}", column: nil, kind: .updateDelete, baseValue: "x", packageValue: "y",
                 resolution: .package, resolvedBy: "decision"),
        Conflict(table: "parks", globalID: "{F6}", column: "geom", kind: .downloadOnly, baseValue: "",
                 message: "the layer was clipped"),
    ]

    @Test func conflictsRoundTripAsAtAGeoPackageSource() throws {
        let db = try RegistryDatabase()
        let registry = db.registry()
        try db.connection.withTransaction { try registry.recordConflicts(Self.conflicts, syncID: "s1") }
        try registry.recordConflicts([Self.conflicts[0]], syncID: "s2")
        try registry.recordConflicts([], syncID: "s3")
        let back = try registry.conflicts(ofSync: "s1")
        #expect(back == Self.conflicts)
        #expect(try registry.conflicts(ofSync: "s2") == [Self.conflicts[0]] && registry.conflicts(ofSync: "s3").isEmpty)
        #expect(try db.psql("SELECT globalid, other_rows, status, base_value IS NULL, column_name IS NULL FROM pkgbuild.conflicts WHERE sync_id = 's1' ORDER BY id")
                == "{A1}||resolved|f|f\n{B2}|{C3} {D4}|open|t|t\n{E5}||resolved|f|t\n{F6}||open|f|f")

        // The GeoPackage driver's reading of the same records.
        let directory = try TemporaryDirectory("pkgbuild-pg-conflicts")
        let path = try directory.copy(testdata: "demo/alaska_source.gpkg", as: "source.gpkg")
        let enabled = CLI.run(["source", "enable", path])
        try #require(enabled.exitCode == 0, "\(enabled.stderr)")
        let geoPackage = try GeoPackageSourceDriver().openSyncSource(path, options: SourceOpenOptions(busyTimeout: 5))
        try geoPackage.withTransaction(.write) { try geoPackage.recordConflicts(Self.conflicts, syncID: "s1") }
        #expect(try geoPackage.conflicts(ofSync: "s1") == back)
    }
}
