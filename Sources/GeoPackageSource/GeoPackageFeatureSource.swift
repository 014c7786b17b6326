/// A GeoPackage as a feature source: its schema and one read snapshot for `create` and
/// `estimate`. The layers' schema is in `+Schema.swift`, the row streams in `+Rows.swift`, the
/// metadata a package copies in `+Metadata.swift`.
import Foundation
import Geodatabase
import SourceDrivers
import SQLite

/// One GeoPackage file, open read only for one `create` or `estimate`.
///
/// - Important: Holds a connection: one owner at a time.
public final class GeoPackageFeatureSource: FeatureSource {
    public let displayName: String
    public var kind: String { "geopackage" }
    public let location: String
    /// The file, as the address named it.
    let path: String
    let connection: Connection
    let schema: GeoPackageSchema

    /// Opens the file read only and reads its schema.
    /// - Throws: ``SourceError`` (`unusable`) when it is not a GeoPackage this user can read.
    init(path: String) throws {
        self.path = path
        displayName = path
        location = URL(fileURLWithPath: path).standardizedFileURL.path
        do {
            // A source in rollback-journal mode is locked while an office edit commits: wait for it.
            connection = try Connection(path: path, mode: .readOnly, busyTimeout: 30)
            // SQLite's default cache, stated: the read's memory stays bounded whatever the source's size.
            try connection.execute("PRAGMA cache_size = -2000")
            schema = try GeoPackageSchema.read(from: connection)
        } catch let error as GeodatabaseError {
            throw SourceError(.unusable, "source \(path): \(error.message)")
        } catch let error as SQLiteError where error.isFileProblem {
            throw SourceError(.unusable, "source \(path) is not a GeoPackage: \(error.message)")
        } catch let error as SQLiteError where error.isReadOnly {
            // A GeoPackage this user cannot read without write access (see Connection's read-only open).
            throw SourceError(.unusable, "source \(path): \(error.message)")
        } catch {
            throw SourceError(.unusable, "source \(path) is not a GeoPackage: \(error)")
        }
    }

    public func relationships() throws -> [Relationship] { schema.relationships }

    public func spatialReferenceSystem(id: Int64) throws -> SpatialReferenceInfo? {
        schema.spatialReferenceSystem(id: id)
    }

    public func isSyncEnabled() throws -> Bool {
        try SourceGeodatabase(connection: connection).isEnabled()
    }

    public var isReadOnly: Bool { !FileManager.default.isWritableFile(atPath: path) }

    public func withReadSnapshot<T>(_ body: () throws -> T) throws -> T {
        try connection.withTransaction(.deferred, body)
    }

    public func changePosition() throws -> SourcePosition? {
        let source = SourceGeodatabase(connection: connection)
        guard try source.isEnabled() else { return nil }
        let generation = try source.generation()
        return SourcePosition(cursor: String(generation), generation: generation)
    }
}
