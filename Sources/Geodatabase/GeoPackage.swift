import Foundation
import SQLite

/// An open GeoPackage (OGC GeoPackage 1.x): an SQLite connection with the SQL functions
/// GeoPackage triggers call already registered, so GDAL-written files can be edited.
///
/// - Important: Like its ``connection``, a GeoPackage has one owner at a time; parallel work
///   opens the file again.
public final class GeoPackage {
    /// The connection to the file; use it for SQL, transactions and statements.
    public let connection: Connection
    /// The path the GeoPackage was opened from.
    public let path: String

    /// Opens an existing GeoPackage and registers the functions its triggers need
    /// (``registerFunctions(on:)``).
    /// - Parameters:
    ///   - path: the `.gpkg` file.
    ///   - readOnly: open without write access.
    ///   - busyTimeout: seconds to wait for another writer's lock before failing.
    /// - Throws: ``GeodatabaseError`` (`.notAGeoPackage`) when the file is missing, is not an
    ///   SQLite database, or lacks the GeoPackage core tables; ``SQLiteError`` for other
    ///   failures of SQLite.
    public init(path: String, readOnly: Bool = false, busyTimeout: Double = 5) throws {
        do {
            // A missing file reads better as "PATH: no such file" than as "not a GeoPackage".
            if let error = Self.missing(path) { throw error }
            connection = try Connection(path: path, mode: readOnly ? .readOnly : .readWrite,
                                        busyTimeout: busyTimeout)
            let coreTables = try connection.scalar("""
                SELECT count(*) FROM sqlite_master
                WHERE type = 'table' AND name IN ('gpkg_contents', 'gpkg_spatial_ref_sys')
                """)
            guard coreTables == 2 else {
                throw GeodatabaseError(.notAGeoPackage,
                    "\(path) is not a GeoPackage: it lacks the gpkg_contents or gpkg_spatial_ref_sys table")
            }
        } catch let error as SQLiteError where error.code == 14 || error.isNotADatabase {  // 14: SQLITE_CANTOPEN
            throw GeodatabaseError(.notAGeoPackage, "\(path) is not a GeoPackage: \(error.message)")
        }
        self.path = path
        try Self.registerFunctions(on: connection)
    }

    private static func missing(_ path: String) -> GeodatabaseError? {
        var info = stat()
        guard stat(path, &info) != 0, errno == ENOENT else { return nil }
        return GeodatabaseError(.notAGeoPackage, "\(path): no such file")
    }
}
