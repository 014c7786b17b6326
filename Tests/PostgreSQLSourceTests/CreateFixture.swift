import Foundation
import Geometry
import PkgBuildCLI
import SQLite
import Testing
import TestSupport
@testable import PostgreSQLSource

/// The demo source twice: the GeoPackage itself, and a fresh database GDAL loaded it into
/// (`ogr2ogr -f PostgreSQL`, GDAL's fid and geom names), its global ids made uuids and its
/// relationship declared in pkgbuild.relationships as `source relate` declares it.
final class CreateFixture {
    static let area = "--area=-160,57,-140,66"
    let database: PostgreSQLTestDatabase
    let directory: TemporaryDirectory
    let geoPackage: String
    /// The database's address as a user gives it (GDAL's form).
    let address: String

    init(uuidGlobalIDs: Bool = true, declareRelationship: Bool = true) throws {
        database = try PostgreSQLTestDatabase()
        directory = try TemporaryDirectory("pkgbuild-pg-create")
        geoPackage = try directory.copy(testdata: "demo/alaska_source.gpkg", as: "source.gpkg")
        address = "PG:\(database.conninfo)"
        let load = try runProcess("ogr2ogr", ["-f", "PostgreSQL", "PG:\(database.conninfo)", geoPackage,
                                              "-lco", "FID=fid", "-lco", "GEOMETRY_NAME=geom", "parks", "airports", "park_visitors"])
        try #require(load.status == 0, "ogr2ogr: \(load.stderr)")
        if uuidGlobalIDs {
            for table in ["parks", "airports", "park_visitors"] {
                try psql("ALTER TABLE \(table) ALTER COLUMN globalid TYPE uuid USING trim(globalid, '{}')::uuid")
            }
        }
        if declareRelationship {
            try psql(TrackingSchema.ddl.joined(separator: ";\n"))
            try psql("""
                INSERT INTO pkgbuild.relationships (name, table_schema, origin_table, origin_key, destination_table,
                destination_key, cardinality) VALUES ('parks_visitors', 'public', 'parks', 'unit_code', 'park_visitors',
                'unit_code', 'one-to-one')
                """)
        }
    }

    @discardableResult
    func psql(_ sql: String) throws -> String {
        try PostgreSQLTestServer.psql(sql, conninfo: database.conninfo)
    }

    /// `pkgbuild create` from `source` into `name`; the result as the CLI gave it.
    func create(_ name: String, from source: String, _ arguments: [String] = []) -> (url: URL, result: CLIResult) {
        let url = directory.url.appendingPathComponent(name)
        let result = CLI.run(["create", Self.area, "--features", source, "--no-register", "--output", url.path] + arguments)
        return (url, result)
    }

    /// Both packages, cut with the same arguments.
    func createBoth(_ arguments: [String] = []) throws -> (geoPackage: URL, postgreSQL: URL) {
        let fromGeoPackage = create("gpkg-\(UUID().uuidString).pkg", from: geoPackage, arguments)
        try #require(fromGeoPackage.result.exitCode == 0, "create from the GeoPackage: \(fromGeoPackage.result.stderr)")
        let fromPostgreSQL = create("pg-\(UUID().uuidString).pkg", from: address, arguments)
        try #require(fromPostgreSQL.result.exitCode == 0, "create from PostgreSQL: \(fromPostgreSQL.result.stderr)")
        return (fromGeoPackage.url, fromPostgreSQL.url)
    }
}

/// A package's data tables as values to compare across sources.
enum PackageData {
    enum Cell: Hashable, CustomStringConvertible {
        case value(SQLiteValue)
        case geometry(Geometry, srsID: Int32)

        var description: String {
            switch self {
            case .value(let value): "\(value)"
            case .geometry(let geometry, let srsID): "\(srsID):\(geometry.wkb().count)b"
            }
        }
    }

    static func connection(_ url: URL) throws -> SQLite.Connection {
        try SQLite.Connection(path: url.appendingPathComponent("data.gpkg").path, mode: .readOnly)
    }

    /// The feature and attribute tables, by name.
    static func tables(_ url: URL) throws -> [String] {
        try connection(url).query("SELECT table_name FROM gpkg_contents WHERE data_type IN ('features', 'attributes') ORDER BY 1")
            .compactMap { $0[0].stringValue }
    }

    /// The rows of `table` by `key` (a natural column), every column but the package's fid,
    /// geometries decoded.
    static func rows(_ table: String, by key: String, in url: URL) throws -> [String: [String: Cell]] {
        let db = try connection(url)
        let geometry = try db.scalar("SELECT column_name FROM gpkg_geometry_columns WHERE table_name = ?", [.text(table)])?.stringValue
        let statement = try db.prepare("SELECT * FROM \"\(table.replacingOccurrences(of: "\"", with: "\"\""))\"")
        var rows: [String: [String: Cell]] = [:]
        while try statement.step() {
            var row: [String: Cell] = [:]
            for (column, value) in zip(statement.columnNames, statement.values) where column != "fid" {
                if column == geometry, case .blob(let bytes) = value {
                    let decoded = try GeoPackageBinary(bytes: bytes)
                    row[column] = .geometry(decoded.geometry, srsID: decoded.srsID)
                } else {
                    row[column] = .value(value)
                }
            }
            guard case .value(let keyValue)? = row[key], let text = keyValue.stringValue else {
                throw TestSupportError("\(table): a row without \(key)")
            }
            rows[text] = row
        }
        return rows
    }
}
