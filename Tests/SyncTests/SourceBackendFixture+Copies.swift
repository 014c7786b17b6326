/// What the tests that compare whole tables need of a backend: identical copies of a source
/// and its package, and the source's rows read by the office's own client (SQLite for a
/// GeoPackage, psql for PostGIS) in the form `contents` gives a package's rows, so that a
/// package row and its source row compare equal when their values are.
import Foundation
import Geometry
import SQLite
import TestSupport
import Testing

extension SourceBackendFixture {
    /// The synced tables of the demo data.
    static let demoTables = ["airports", "parks", "park_visitors"]

    /// An identical copy of the source and the package (same replica, same pending edits):
    /// the GeoPackage by `VACUUM INTO`, a PostGIS database by `CREATE DATABASE ... TEMPLATE`
    /// (nothing may be connected to this fixture's database meanwhile).
    func copy() throws -> SourceBackendFixture {
        guard backend != .memory else { throw TestSupportError("an in-memory source is not copied") }
        let (copiedBase, copiedURL) = try base.clone(package: url)
        return SourceBackendFixture(backend: backend, base: copiedBase, url: copiedURL,
                                    memory: try InMemorySource.copy(ofGeoPackage: copiedBase.sourcePath, name: "x"),
                                    postGIS: try postGIS.map { try PostGISSource(copyOf: $0) }, registry: registry)
    }

    /// The source's rows of `table` by global id, every column but the key (see `contents`).
    func sourceContents(_ table: String) throws -> [String: [String: String]] {
        switch backend {
        case .geoPackage: return try contents(base.openSource().connection, table)
        case .postgreSQL: return try postGIS!.contents(table)
        case .memory: throw TestSupportError("the in-memory source's rows are read through the driver")
        }
    }

    func sourceRowCount(_ table: String) throws -> Int64 {
        switch backend {
        case .postgreSQL: return Int64(try postGIS!.psql("SELECT count(*) FROM \(table)")) ?? -1
        case .geoPackage: return try base.openSource().connection.scalar("SELECT count(*) FROM \"\(table)\"")?.int64Value ?? -1
        case .memory: return Int64(try memory.table(table).rows.count)
        }
    }

    /// Every synced table of the package and of the source, by global id.
    func snapshot() throws -> [String: [String: [String: String]]] {
        let package = try base.openPackage(url).connection
        var result: [String: [String: [String: String]]] = [:]
        for table in Self.demoTables {
            result["package." + table] = try contents(package, table)
            result["source." + table] = try sourceContents(table)
        }
        return result
    }

    /// Row counts of each synced table, package then source.
    func rowCounts() throws -> [Int64] {
        let package = try base.openPackage(url).connection
        return try Self.demoTables.flatMap { table in
            [try package.scalar("SELECT count(*) FROM \"\(table)\"")?.int64Value ?? -1, try sourceRowCount(table)]
        }
    }
}

extension PostGISSource {
    /// The rows of `table` (schema public) by global id, read by psql, each value written as
    /// `contents` writes a package's: text as an SQL literal, numbers as SQLite prints them,
    /// the global id as packages carry it (`{UPPER-CASE}`), geometries as WKT of their WKB.
    func contents(_ table: String) throws -> [String: [String: String]] {
        let described = try psql("""
            SELECT column_name || '|' || udt_name FROM information_schema.columns
            WHERE table_schema = 'public' AND table_name = '\(table)' AND column_name <> 'fid' ORDER BY ordinal_position
            """).split(separator: "\n").map { $0.split(separator: "|").map(String.init) }
        let columns = described.map { (name: $0[0], type: $0[1]) }
        let selected = columns.map { column in
            switch column.type {
            case "geometry": "encode(ST_AsBinary(\"\(column.name)\"), 'hex')"
            case "uuid": "'{' || upper(\"\(column.name)\"::text) || '}'"
            default: "\"\(column.name)\"::text"
            }
        }
        let lines = try psql("SELECT json_build_array(\(selected.joined(separator: ", "))) FROM \(table)")
        var result: [String: [String: String]] = [:]
        for line in lines.split(separator: "\n") {
            let values = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [Any])
            var row: [String: String] = [:]
            for (column, value) in zip(columns, values) {
                row[column.name] = try Self.packageForm(value as? String, type: column.type)
            }
            result[row["globalid"] ?? ""] = row
        }
        return result
    }

    /// A value psql printed as text, as `SQLiteValue.description` prints the package's.
    static func packageForm(_ text: String?, type: String) throws -> String {
        guard let text else { return "NULL" }
        switch type {
        case "geometry": return try Geometry(wkb: hexBytes(text)).wkt
        case "int2", "int4", "int8": return text
        case "float4", "float8": return String(try #require(Double(text)))
        case "bool": return text == "true" ? "1" : "0"
        default: return SQL.literal(text)
        }
    }

    static func hexBytes(_ hex: String) throws -> [UInt8] {
        let digits = Array(hex.utf8)
        return try stride(from: 0, to: digits.count, by: 2).map { index in
            try #require(UInt8(String(decoding: digits[index..<index + 2], as: UTF8.self), radix: 16))
        }
    }
}

/// A fixture made once, on first use, for tests that each start from a copy of it (making a
/// PostGIS source costs seconds; copying it, a fraction of one).
final class SharedSourceFixture: @unchecked Sendable {
    private let make: @Sendable () throws -> SourceBackendFixture
    private let lock = NSLock()
    private var made: Result<SourceBackendFixture, any Error>?

    init(_ make: @escaping @Sendable () throws -> SourceBackendFixture) { self.make = make }

    func fixture() throws -> SourceBackendFixture {
        lock.lock()
        defer { lock.unlock() }
        if made == nil { made = Result { try make() } }
        return try made!.get()
    }

    /// A copy of it (nothing ever syncs the shared fixture itself).
    func copy() throws -> SourceBackendFixture {
        let fixture = try fixture()
        return try fixture.copy()
    }
}
