import Foundation
import SQLite
import TestSupport
import Testing

/// Opens a GeoPackage for writing with GDAL's `ST_*` function names registered as stand-ins
/// that fail when called. SQLite resolves the functions of GDAL's R-tree triggers when it
/// prepares a write, even when a trigger's WHEN clause keeps it from running; the writes in
/// these tests never change a geometry, so a stand-in that is called is a test bug and fails.
func openForEditing(_ path: String) throws -> Connection {
    let connection = try Connection(path: path, mode: .readWrite)
    for name in ["ST_IsEmpty", "ST_MinX", "ST_MaxX", "ST_MinY", "ST_MaxY"] {
        try connection.createFunction(name, argumentCount: 1) { _ in
            throw SQLiteError(extendedCode: 1, message: "\(name) called in a test that changes no geometry")
        }
    }
    return connection
}

/// Runs SQL through GDAL (`ogrinfo -sql`), which registers its own GeoPackage functions.
func gdalSQL(_ path: String, _ sql: String) throws {
    let result = try runProcess("ogrinfo", ["-q", path, "-sql", sql])
    #expect(result.status == 0, "ogrinfo -sql \(sql): \(result.stderr)")
    #expect(!result.stderr.contains("ERROR"), "ogrinfo -sql \(sql): \(result.stderr)")
}

/// GDAL's validator; passes when it exits 0 and prints nothing.
func validateGeoPackage(_ path: String) throws -> ProcessResult {
    try runProcess("/usr/bin/python3", [GDALValidator.script, path])
}

/// The file's content as SQL text, from the sqlite3 shell.
func dump(_ path: String) throws -> String { try sqliteDump(path) }

extension Connection {
    func strings(_ sql: String, _ arguments: [SQLiteValue] = []) throws -> [String] {
        try query(sql, arguments).map { $0[0].stringValue ?? $0[0].description }
    }

    func integer(_ sql: String, _ arguments: [SQLiteValue] = []) throws -> Int64 {
        try scalar(sql, arguments)?.int64Value ?? -1
    }
}
