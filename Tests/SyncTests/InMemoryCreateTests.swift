import Foundation
import Geodatabase
import Geometry
import PackageFormat
import PkgBuildCLI
import SQLite
import SourceDrivers
@testable import Sync
import TestSupport
import Testing

/// `pkgbuild create` from the in-memory copy of the demo source (no SQLite under it) against
/// `create` from the GeoPackage itself with the same arguments: the packages hold the same
/// rows by global id (geometries compared as geometries) and the same metadata, and the copy's
/// package is registered at the in-memory source and syncs with it.
@Suite struct InMemoryCreateTests {
    static let cuts: [[String]] = [[], ["--where", "airports:type = 'major'"], ["--clip"]]

    @Test(arguments: cuts)
    func aPackageCutFromMemoryHoldsWhatTheGeoPackageCutHolds(_ arguments: [String]) throws {
        let f = try InMemoryCreateFixture()
        let fromGeoPackage = try f.base.makePackage("geopackage.pkg", arguments: arguments)
        let fromMemory = try f.createFromMemory("memory.pkg", arguments: arguments)
        let tables = try f.dataTables(fromGeoPackage)
        #expect(tables == ["airports", "park_visitors", "parks"])
        #expect(try f.dataTables(fromMemory) == tables)
        for table in tables {
            let expected = try PackageRows.byGlobalID(table, in: fromGeoPackage)
            #expect(!expected.isEmpty, "\(table): the cut took no rows, so the comparison shows nothing")
            #expect(try PackageRows.byGlobalID(table, in: fromMemory) == expected, "\(table) \(arguments)")
        }
        // The area did narrow the rows (else the envelope test would go unseen).
        #expect(try PackageRows.byGlobalID("parks", in: fromGeoPackage).count < 13)
        for table in ["gpkg_data_columns", "gpkg_data_column_constraints", "pkgbuild_relationships", "gpkg_extensions"] {
            let expected = try PackageRows.all(table, in: fromGeoPackage)
            #expect(try PackageRows.all(table, in: fromMemory) == expected, "\(table) \(arguments)")
        }
        #expect(try PackageRows.all("pkgbuild_relationships", in: fromMemory).count == 1)
    }

    /// Related rows through a Related Tables mapping table (`keys(through:)`), its relation
    /// row, its declaration and the links whose both ends are in the package.
    @Test func aMappingTablesLinksAreCutFromMemoryAsFromTheGeoPackage() throws {
        let f = try InMemoryCreateFixture(source: "fixtures/geodatabase/related.gpkg", box: RelatedTablesSyncTests.area)
        let fromGeoPackage = try f.base.makePackage("geopackage.pkg", box: f.box)
        let fromMemory = try f.createFromMemory("memory.pkg")
        #expect(try f.dataTables(fromMemory) == ["inspections", "trees"])
        for table in ["trees", "inspections", "trees_inspections"] {
            let expected = try PackageRows.byGlobalID(table, in: fromGeoPackage)
            #expect(!expected.isEmpty, "\(table): the cut took no rows")
            #expect(try PackageRows.byGlobalID(table, in: fromMemory) == expected, "\(table)")
        }
        for table in ["gpkgext_relations", "gpkg_extensions"] {
            #expect(try PackageRows.all(table, in: fromMemory) == PackageRows.all(table, in: fromGeoPackage), "\(table)")
        }
        #expect(try PackageRows.all("gpkgext_relations", in: fromMemory).count == 1)
    }

    /// `estimate` reads through the same protocol: its counts of the copy are the GeoPackage's.
    @Test(arguments: cuts)
    func anEstimateOfTheCopyCountsWhatOneOfTheGeoPackageCounts(_ arguments: [String]) throws {
        let f = try InMemoryCreateFixture()
        let box = f.box
        func estimate(_ source: String) throws -> String {
            let result = CLI.run(["estimate", "--area=\(box.minX),\(box.minY),\(box.maxX),\(box.maxY)", "--features", source,
                                  "--json"] + arguments)
            try #require(result.exitCode == 0, "estimate from \(source): \(result.stderr)")
            return result.stdout
        }
        let expected = try estimate(f.base.sourcePath)
        #expect(expected.contains("\"related\": 7"), "\(expected)")
        #expect(try estimate(f.memory.displayName) == expected)
    }

    @Test func theWhereFilterAndTheClipTakeEffectInMemory() throws {
        let f = try InMemoryCreateFixture()
        let all = try PackageRows.byGlobalID("airports", in: f.createFromMemory("all.pkg"))
        let major = try PackageRows.byGlobalID("airports", in: f.createFromMemory("major.pkg", arguments: ["--where", "airports:type = 'major'"]))
        #expect(major.count == 2 && all.count > major.count, "\(major.count) of \(all.count)")
        let whole = try PackageRows.byGlobalID("parks", in: f.createFromMemory("whole.pkg"))
        let clipped = try PackageRows.byGlobalID("parks", in: f.createFromMemory("clipped.pkg", arguments: ["--clip"]))
        #expect(Set(whole.keys) == Set(clipped.keys) && whole != clipped, "the clip changed no park's geometry")
    }

    @Test func theReplicaIsRegisteredInMemoryAndThePackageSyncsWithIt() throws {
        let f = try InMemoryCreateFixture()
        let generation = f.memory.state.generation
        let url = try f.createFromMemory("memory.pkg")
        let manifest = try PackageManifest.read(from: url.appendingPathComponent("manifest.json"))
        #expect(manifest.source.kind == "memory" && manifest.source.location == f.memory.displayName, "\(manifest.source)")
        let state = try PackageSyncState.read(f.base.openPackage(url).connection)
        let replicaID = state.replicaID
        // The package keeps the cursor as the driver wrote it, read with the rows.
        #expect(state.sourceCursor == "mem:\(generation)" && state.sourceGeneration == generation, "\(state)")
        let replica = try #require(try f.memory.replica(id: replicaID), "no replica \(replicaID) in memory")
        #expect(replica.state == .active && replica.extractionGeneration == generation)
        #expect(try GeoPackageReplicas.ids(f.base.sourcePath).contains(replicaID) == false)
        try ogrSQL(url.appendingPathComponent("data.gpkg").path, "UPDATE airports SET type = 'closed' WHERE name = 'Kodiak'")
        var options = SyncOptions(source: f.memory.displayName)
        options.sources = InMemorySourceDriver(source: f.memory).registry
        let report = try SyncSession(package: url, options: options).run()
        #expect(report.status == .completed && report.uploaded.updated == 1 && report.downloaded.total == 0, "\(report)")
        let kodiak = try #require(try f.memory.table("airports").rows.values.first { $0["name"] == .text("Kodiak") })
        #expect(kodiak["type"] == .text("closed"))
        #expect(try f.memory.replica(id: replicaID)?.lastSyncID != nil)
    }

    @Test func aRowQueryOfAMissingLayerOrColumnIsRefused() throws {
        let f = try InMemoryCreateFixture()
        let source = InMemoryFeatureSource(source: f.memory)
        #expect(throws: SourceError.self) { try source.forEachRow(RowQuery(layer: "nowhere", columns: [], selection: .all)) { _ in } }
        #expect(throws: SourceError.self) {
            try source.forEachRow(RowQuery(layer: "airports", columns: ["nothing"], selection: .all)) { _ in }
        }
    }
}

/// The demo source copied into memory, its driver registered for the whole process under an
/// address no other test's (nor the GeoPackage driver, which takes any address without a
/// scheme) takes.
final class InMemoryCreateFixture {
    let base: SyncFixture
    let memory: InMemorySource
    let box: (minX: Double, minY: Double, maxX: Double, maxY: Double)

    init(source: String = "demo/alaska_source.gpkg",
         box: (minX: Double, minY: Double, maxX: Double, maxY: Double) = SyncFixture.area) throws {
        base = try SyncFixture(source: source)
        self.box = box
        memory = try InMemorySource.copy(ofGeoPackage: base.sourcePath, name: "//create-\(UUID().uuidString)")
        SourceRegistry.register(ExactInMemoryDriver(driver: InMemorySourceDriver(source: memory)))
    }

    func createFromMemory(_ name: String, arguments: [String] = []) throws -> URL {
        let url = base.directory.url.appendingPathComponent(name)
        let result = CLI.run(["create", "--area=\(box.minX),\(box.minY),\(box.maxX),\(box.maxY)", "--features",
                              memory.displayName, "--output", url.path] + arguments)
        try #require(result.exitCode == 0, "create from \(memory.displayName): \(result.stderr)")
        return url
    }

    func dataTables(_ url: URL) throws -> [String] {
        try base.openPackage(url).connection.query("SELECT table_name FROM gpkg_contents ORDER BY table_name")
            .compactMap { $0[0].stringValue }
    }
}

/// The in-memory driver taking its source's address alone, under a name of its own (the
/// process-wide registry keeps one driver a name).
struct ExactInMemoryDriver: SourceDriver {
    let driver: InMemorySourceDriver
    var name: String { "memory (\(driver.source.displayName))" }
    func accepts(_ address: String) -> Bool { address == driver.source.displayName }
    func openSyncSource(_ address: String, options: SourceOpenOptions) throws -> any SyncSource {
        try driver.openSyncSource(address, options: options)
    }
    func openFeatureSource(_ address: String) throws -> any FeatureSource { try driver.openFeatureSource(address) }
}

/// A package's rows as values, a geometry decoded from its GeoPackage binary.
enum PackageValue: Hashable {
    case value(SQLiteValue)
    case geometry(Geometry, srsID: Int32)
}

enum PackageRows {
    /// The rows of a data table by global id, every column but the package's own key.
    static func byGlobalID(_ table: String, in url: URL) throws -> [String: [String: PackageValue]] {
        var rows: [String: [String: PackageValue]] = [:]
        for row in try all(table, in: url) {
            guard case .value(.text(let globalID))? = row["globalid"] else { throw InMemorySourceError("\(table): a row without globalid") }
            rows[globalID] = row.filter { $0.key != "fid" }
        }
        return rows
    }

    /// Every row of a table, as a multiset of rows.
    static func all(_ table: String, in url: URL) throws -> [[String: PackageValue]] {
        let connection = try GeoPackage(path: url.appendingPathComponent("data.gpkg").path).connection
        let geometry = try connection.scalar("SELECT column_name FROM gpkg_geometry_columns WHERE table_name = ?", [.text(table)])?.stringValue
        let statement = try connection.prepare("SELECT * FROM \"\(table)\"")
        var rows: [[String: PackageValue]] = []
        while try statement.step() {
            var row: [String: PackageValue] = [:]
            for (column, value) in zip(statement.columnNames, statement.values) {
                if column == geometry, case .blob(let bytes) = value {
                    let decoded = try GeoPackageBinary(bytes: bytes)
                    row[column] = .geometry(decoded.geometry, srsID: decoded.srsID)
                } else {
                    row[column] = .value(value)
                }
            }
            rows.append(row)
        }
        return rows.sorted { canonical($0) < canonical($1) }
    }

    private static func canonical(_ row: [String: PackageValue]) -> String {
        row.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: "|")
    }
}

/// The replicas the GeoPackage source registers, read from the file.
enum GeoPackageReplicas {
    static func ids(_ path: String) throws -> [String] {
        try SourceGeodatabase(connection: GeoPackage(path: path).connection).replicas().map(\.id)
    }
}
