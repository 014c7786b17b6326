import Foundation
import Geodatabase
import Geometry
import PackageFormat
import PkgBuildCLI
import SQLite
@testable import Sync
import TestSupport
import Testing

/// Rows the source refuses are conflicts of their own row, not failures of the sync: recorded as
/// constraint conflicts, kept pending, exit 2; the other rows go up when the policy lets them.
@Suite struct RefusedRowTests {
    /// GDAL's SQL on the package file (its own connection, its own functions).
    func ogrSQL(_ path: String, _ sql: String) throws {
        let result = try runProcess("/usr/bin/ogrinfo", ["-q", path, "-sql", sql])
        try #require(result.status == 0, "\(result.stderr)")
    }

    @Test func aSpatiaLiteGeometryWrittenByGDALIsARefusedRow() throws {
        let fixture = try SyncFixture()
        let url = try fixture.makePackage()
        let data = url.appendingPathComponent("data.gpkg").path
        let source = try fixture.openSource().connection
        let sourceANC = try source.scalar("SELECT hex(geom) FROM airports WHERE iata_code = 'ANC'")
        // GDAL's MakePoint writes a SpatiaLite blob, not GeoPackage binary.
        try ogrSQL(data, "UPDATE airports SET geom = MakePoint(-150.0, 61.2, 4326) WHERE iata_code = 'ANC'")
        let package = try fixture.openPackage(url).connection
        let blob = try #require(try package.scalar("SELECT hex(geom) FROM airports WHERE iata_code = 'ANC'")?.stringValue)
        try #require(blob.hasPrefix("0001E6100000") && blob.hasSuffix("FE"), "a SpatiaLite blob: \(blob)")
        try package.execute("UPDATE airports SET type = 'regional' WHERE iata_code = 'ADQ'")

        // fail: nothing changes anywhere, exit 2, the row named.
        let failed = CLI.run(["sync", url.path, "--source", fixture.sourcePath])
        #expect(failed.exitCode == 2, "\(failed.stdout)\(failed.stderr)")
        #expect(failed.stdout.contains("SpatiaLite") && failed.stdout.contains("constraint"), "\(failed.stdout)")
        #expect(try source.scalar("SELECT type FROM airports WHERE iata_code = 'ADQ'") != "regional")
        #expect(try source.scalar("SELECT hex(geom) FROM airports WHERE iata_code = 'ANC'") == sourceANC)

        // package-wins: the other edit goes up, the refused row stays pending, still exit 2.
        let report = try fixture.sync(url, policy: .packageWins)
        #expect(report.status == .completedWithPending && report.hasUnresolved && report.uploaded.updated == 1)
        let refused = try #require(report.conflicts.first)
        #expect(report.conflicts.count == 1 && refused.kind == .constraint && refused.table == "airports")
        #expect(try source.scalar("SELECT type FROM airports WHERE iata_code = 'ADQ'") == "regional")
        #expect(try source.scalar("SELECT hex(geom) FROM airports WHERE iata_code = 'ANC'") == sourceANC)
        #expect(try package.scalar("SELECT hex(geom) FROM airports WHERE iata_code = 'ANC'")?.stringValue == blob)
        let pending = try PackageChangeTracking(connection: package).pendingChanges()
        #expect(pending.map(\.globalID) == [refused.globalID])
        #expect(try ConflictStore.open(in: package).contains { $0.conflict.kind == .constraint && $0.conflict.globalID == refused.globalID })

        // Converted to GeoPackage binary (GDAL's AsGPB), it goes up.
        try ogrSQL(data, "UPDATE airports SET geom = AsGPB(geom) WHERE iata_code = 'ANC'")
        let fixed = CLI.run(["sync", url.path, "--source", fixture.sourcePath])
        #expect(fixed.exitCode == 0, "\(fixed.stdout)\(fixed.stderr)")
        guard case .blob(let bytes)? = try source.scalar("SELECT geom FROM airports WHERE iata_code = 'ANC'"),
              case .point(let point) = try GeoPackageBinary(bytes: bytes).geometry, let c = point.coordinate else {
            Issue.record("no point at the source")
            return
        }
        #expect(c.x == -150.0 && c.y == 61.2)
        #expect(try PackageChangeTracking(connection: package).pendingChanges().isEmpty)
    }

    @Test func aUniqueConstraintAtTheSourceRefusesOneRowOnly() throws {
        let fixture = try SyncFixture()
        let url = try fixture.makePackage()
        let package = try fixture.openPackage(url).connection
        let source = try fixture.openSource().connection
        // NOAT's visitors row is not in the package, but the source has it: unit_code is UNIQUE.
        try package.execute("INSERT INTO park_visitors (unit_code, annual_visitors) VALUES ('NOAT', '0-1,000')")
        try package.execute("UPDATE park_visitors SET survey_year = 2026 WHERE unit_code = 'DENA'")
        let result = CLI.run(["sync", url.path, "--source", fixture.sourcePath, "--on-conflict", "source-wins", "--json"])
        #expect(result.exitCode == 2, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("\"constraint\"") && result.stdout.contains("UNIQUE"), "\(result.stdout)")
        #expect(try source.scalar("SELECT survey_year FROM park_visitors WHERE unit_code = 'DENA'") == 2026)
        #expect(try source.scalar("SELECT annual_visitors FROM park_visitors WHERE unit_code = 'NOAT'") == "1,000-10,000")
        #expect(try package.scalar("SELECT annual_visitors FROM park_visitors WHERE unit_code = 'NOAT'") == "0-1,000")
        #expect(try PackageChangeTracking(connection: package).pendingChanges().map(\.operation) == [.insert])
    }
}
