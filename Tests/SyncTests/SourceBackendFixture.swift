/// A package built by `pkgbuild create` from the demo data, synced with a source of each
/// backend: the GeoPackage itself; an in-memory copy of it (`memory:x`) through a registry
/// holding only the in-memory driver (whatever those syncs do, they cannot reach the
/// GeoPackage); or the same layers loaded into PostGIS by `ogr2ogr` and enabled there, the
/// package then cut from PostgreSQL. The same test holds every driver and the protocol to one
/// behaviour.
import Foundation
import GeoPackageSource
import Geodatabase
import Geometry
import PackageFormat
import PkgBuildCLI
import PostgreSQLSource
import SQLite
import SourceDrivers
@testable import Sync
import TestSupport
import Testing

/// Which driver a test syncs through.
enum SourceBackend: String, CaseIterable, CustomTestStringConvertible {
    case geoPackage, memory, postgreSQL
    var testDescription: String { rawValue }

    /// The backends this run can reach: PostgreSQL beside the cluster of `make test` only
    /// (under CI a missing cluster fails PostgreSQLTests.AvailabilityTests).
    static var available: [SourceBackend] {
        allCases.filter { $0 != .postgreSQL || PostgreSQLTestServer.isAvailable }
    }

    /// For what only the file-shaped sources have (a Related Tables mapping table).
    static let withoutPostgreSQL: [SourceBackend] = [.geoPackage, .memory]
}

final class SourceBackendFixture {
    let backend: SourceBackend
    let base: SyncFixture
    let url: URL
    /// The in-memory copy (made for both backends; synced with only under `.memory`).
    let memory: InMemorySource
    /// The PostGIS twin (made under `.postgreSQL` only).
    let postGIS: PostGISSource?
    let registry: SourceRegistry

    /// - Parameters:
    ///   - prepare: SQL run on the GeoPackage source before the package is made (a unique
    ///     index, say), so both the package and the copy carry it; on PostgreSQL after the
    ///     package is made (`ogr2ogr` would carry a unique index into a constraint the package
    ///     then enforces itself).
    ///   - arguments: more arguments of `pkgbuild create` (a `--where`).
    ///   - source: the GeoPackage in testdata the source is a copy of, and `box` the area.
    ///   - seed: writes to that GeoPackage copy (sync-enabled) before anything is made of it,
    ///     so every backend starts from the same rows.
    init(_ backend: SourceBackend, prepare: [String] = [], arguments: [String] = [],
         source: String = "demo/alaska_source.gpkg",
         box: (minX: Double, minY: Double, maxX: Double, maxY: Double) = SyncFixture.area,
         seed: (SyncFixture) throws -> Void = { _ in }) throws {
        self.backend = backend
        base = try SyncFixture(source: source)
        try seed(base)
        switch backend {
        case .geoPackage, .memory:
            for sql in prepare { try ogrSQL(base.sourcePath, sql) }
            postGIS = nil
            url = try base.makePackage(box: box, arguments: arguments)
            memory = try InMemorySource.copy(ofGeoPackage: base.sourcePath, name: "x")
            registry = backend == .memory ? InMemorySourceDriver(source: memory).registry : SourceRegistry([GeoPackageSourceDriver()])
        case .postgreSQL:
            let postGIS = try PostGISSource(geoPackage: base.sourcePath)
            try Self.enable(postGIS)
            self.postGIS = postGIS
            memory = try InMemorySource.copy(ofGeoPackage: base.sourcePath, name: "x")
            url = try Self.makePackage(from: postGIS.address, in: base, box: box, arguments: arguments)
            for sql in prepare { try postGIS.psql(sql) }
            registry = SourceRegistry([PostgreSQLSourceDriver()])
        }
    }

    /// A fixture of parts already made (an identical copy of another: `copy()`).
    init(backend: SourceBackend, base: SyncFixture, url: URL, memory: InMemorySource, postGIS: PostGISSource?,
         registry: SourceRegistry) {
        self.backend = backend
        self.base = base
        self.url = url
        self.memory = memory
        self.postGIS = postGIS
        self.registry = registry
    }

    private static func enable(_ postGIS: PostGISSource) throws {
        let result = CLI.run(["source", "enable", postGIS.address])
        guard result.exitCode == 0 else { throw TestSupportError("source enable failed: \(result.stderr)") }
    }

    private static func makePackage(from address: String, in base: SyncFixture,
                                    box: (minX: Double, minY: Double, maxX: Double, maxY: Double), arguments: [String]) throws -> URL {
        let url = base.directory.url.appendingPathComponent("area.pkg")
        let result = CLI.run(["create", "--area=\(box.minX),\(box.minY),\(box.maxX),\(box.maxY)", "--features", address,
                              "--output", url.path] + arguments)
        guard result.exitCode == 0 else { throw TestSupportError("create from \(address) failed: \(result.stderr)") }
        return url
    }

    var data: String { url.appendingPathComponent("data.gpkg").path }
    var address: String {
        switch backend {
        case .geoPackage: base.sourcePath
        case .memory: memory.displayName
        case .postgreSQL: postGIS!.address
        }
    }

    func options(policy: ConflictPolicy = .fail, direction: SyncDirection = .bidirectional, dryRun: Bool = false,
                 crashHook: (@Sendable (SyncCrashPoint) throws -> Void)? = nil) -> SyncOptions {
        var options = SyncOptions(source: address, direction: direction, policy: policy, dryRun: dryRun, crashHook: crashHook)
        options.sources = registry
        return options
    }

    func sync(_ package: URL? = nil, policy: ConflictPolicy = .fail, direction: SyncDirection = .bidirectional,
              dryRun: Bool = false, crashHook: (@Sendable (SyncCrashPoint) throws -> Void)? = nil) throws -> SyncReport {
        try SyncSession(package: package ?? url, options: options(policy: policy, direction: direction, dryRun: dryRun,
                                                                  crashHook: crashHook)).run()
    }

    func verify(_ package: URL? = nil) throws -> VerifyReport {
        try VerifySession(package: package ?? url, source: address, sources: registry).run()
    }

    /// The source's row of `table` whose `column` is `name`, every column, read through the
    /// driver (for both backends, the protocol's own reading).
    func sourceRow(_ table: String, named name: String, column: String = "name") throws -> SourceRow? {
        let source = try registry.openSyncSource(address, options: SourceOpenOptions(readOnly: true))
        let described = try #require(try source.trackedTables().first { $0.name == table })
        return try findRow(source, described, column, name)
    }

    private func findRow(_ source: any SyncSource, _ table: SourceTable, _ column: String, _ name: String) throws -> SourceRow? {
        let rows = try source.rowsByGlobalID(in: Self.shape(table))
        while let row = try rows.next() { if row[column] == .text(name) { return row } }
        return nil
    }

    static func shape(_ table: SourceTable) -> TableShape {
        TableShape(name: table.name, keyColumn: table.keyColumn, globalIDColumn: table.globalIDColumn,
                   columns: table.columns.map(\.name), geometryColumn: table.geometry?.name)
    }

    /// What moves when the source is written (a change logged, a sync recorded): the position
    /// of a GeoPackage or in-memory source; in PostgreSQL, whose snapshot moves with any
    /// transaction of the cluster, the number of log rows and of syncs recorded, read by psql.
    func sourceWrites() throws -> String {
        guard let postGIS else { return "\(try sourcePosition())" }
        return try postGIS.psql("SELECT (SELECT count(*) FROM pkgbuild.changes) || ' changes, ' || (SELECT count(*) FROM pkgbuild.replica_syncs) || ' syncs'")
    }

    /// The source's position now, through its driver.
    func sourcePosition() throws -> SourcePosition {
        try registry.openSyncSource(address, options: SourceOpenOptions(readOnly: true)).position()
    }

    func sourceValue(_ table: String, named name: String, _ column: String) throws -> SourceValue? {
        try sourceRow(table, named: name)?[column]
    }

    /// An office edit at the source: for a GeoPackage, GDAL's SQL on the file; in memory, a
    /// write outside any apply context; in PostGIS, psql.
    func officeUpdate(_ table: String, named name: String, column key: String = "name", set column: String,
                      to value: SourceValue) throws {
        switch backend {
        case .geoPackage:
            try base.openSource().connection.execute("UPDATE \"\(table)\" SET \"\(column)\" = ? WHERE \"\(key)\" = ?",
                                                     [try value.sqliteValue(), .text(name)])
        case .memory:
            let row = try #require(try memory.table(table).rows.values.first { $0[key] == .text(name) })
            try memoryWrite(.update(globalID: try #require(row["globalid"]?.stringValue),
                                    SourceRow(columns: [column], values: [value])), in: table)
        case .postgreSQL:
            try postGIS!.psql("UPDATE \(table) SET \(column) = \(try value.postgreSQLLiteral()) WHERE \(key) = \(try SourceValue.text(name).postgreSQLLiteral())")
        }
    }

    /// An office insert of a small airport at (x, y).
    func officeInsertAirport(_ name: String, x: Double, y: Double) throws {
        switch backend {
        case .geoPackage:
            try base.openSource().connection.execute("INSERT INTO airports (geom, name, type) VALUES (?, ?, 'small')",
                                                     [pointBlob(x, y), .text(name)])
        case .memory:
            let values: [SourceValue] = [.text(GlobalID.make()), .text(name), .text("small"),
                                         .geometry(GeometryValue(.point(Point(x: x, y: y)), srsID: 4326))]
            try memoryWrite(.insert(SourceRow(columns: ["globalid", "name", "type", "geom"], values: values)), in: "airports")
        case .postgreSQL:
            try postGIS!.psql("INSERT INTO airports (geom, name, type) VALUES (ST_SetSRID(ST_MakePoint(\(x), \(y)), 4326), "
                              + "\(try SourceValue.text(name).postgreSQLLiteral()), 'small')")
        }
    }

    func memoryWrite(_ write: SourceWrite, in table: String) throws {
        let outcome = try memory.apply(write, in: Self.shape(try memory.table(table).shape))
        try #require(outcome == .applied(found: true), "office write \(write): \(outcome)")
    }

    /// A column of the package's row whose `name` is `name`, as an SQL literal; nil for no row.
    func packageValue(_ table: String, named name: String, _ column: String) throws -> String? {
        try base.openPackage(url).connection.query("SELECT \"\(column)\" FROM \"\(table)\" WHERE name = ?", [.text(name)])
            .first?.first?.description
    }
}

extension SourceBackendFixture {
    /// A column added at the source (`ALTER TABLE ... ADD COLUMN`: every row NULL in it, or
    /// `notNullDefault` for a NOT NULL column; no change logged).
    func addSourceColumn(_ column: String, type: String, baseType: BaseType, to table: String,
                         notNullDefault: String? = nil) throws {
        switch backend {
        case .geoPackage:
            let constraint = notNullDefault.map { " NOT NULL DEFAULT \(SQL.literal($0))" } ?? ""
            try ogrSQL(base.sourcePath, "ALTER TABLE \"\(table)\" ADD COLUMN \"\(column)\" \(type)\(constraint)")
        case .memory:
            let index = try #require(memory.state.tables.firstIndex { $0.shape.name == table })
            memory.state.tables[index].shape.columns.append(FeatureColumn(name: column, declaredType: type, baseType: baseType))
            if notNullDefault != nil { memory.state.tables[index].notNullColumns.insert(column) }
            for globalID in memory.state.tables[index].rows.keys {
                memory.state.tables[index].rows[globalID]?[column] = notNullDefault.map(SourceValue.text) ?? .null
            }
        case .postgreSQL:
            let constraint = try notNullDefault.map { " NOT NULL DEFAULT \(try SourceValue.text($0).postgreSQLLiteral())" } ?? ""
            try postGIS!.psql("ALTER TABLE \(table) ADD COLUMN \(column) \(SourceValue.postgreSQLType(of: baseType))\(constraint)")
        }
    }

    /// The package's replica retired at the source, as `source unregister` does.
    func unregisterAtSource(_ replicaID: String) throws {
        let source = try registry.openSyncSource(address, options: SourceOpenOptions())
        try source.unregisterReplica(id: replicaID, by: "pkgbuild source unregister", successor: nil)
    }

    func packageReplicaID(_ package: URL? = nil) throws -> String {
        try PackageSyncState.read(base.openPackage(package ?? url).connection).replicaID
    }
}

extension SourceBackendFixture {
    /// An office insert of a row with these values (its global id among them).
    func officeInsert(_ table: String, _ values: [(column: String, value: SourceValue)]) throws {
        switch backend {
        case .geoPackage:
            let columns = values.map { "\"\($0.column)\"" }.joined(separator: ", ")
            try base.openSource().connection.execute(
                "INSERT INTO \"\(table)\" (\(columns)) VALUES (\(values.map { _ in "?" }.joined(separator: ", ")))",
                try values.map { try $0.value.sqliteValue() })
        case .memory:
            try memoryWrite(.insert(SourceRow(columns: values.map(\.column), values: values.map(\.value))), in: table)
        case .postgreSQL:
            try postGIS!.psql("INSERT INTO \(table) (\(values.map(\.column).joined(separator: ", "))) VALUES ("
                              + (try values.map { try $0.value.postgreSQLLiteral() }.joined(separator: ", ")) + ")")
        }
    }

    /// The source's own key of a row, through the driver.
    func sourceKey(_ table: String, globalID: String) throws -> SourceValue? {
        let source = try registry.openSyncSource(address, options: SourceOpenOptions(readOnly: true))
        let described = try #require(try source.trackedTables().first { $0.name == table })
        return try source.value(of: described.keyColumn, in: table, where: described.globalIDColumn, equals: .text(globalID))
    }
}
