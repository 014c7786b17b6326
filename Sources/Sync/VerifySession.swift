/// `verify`: compares a package with its source row by row, for everything the package should
/// hold, and says of each difference whether a recorded change explains it.
///
/// The expected rows are those a sync would leave in the package: the source's rows that meet
/// the area and the layer's filter, or relate to a member (``DownloadScope``, the same rules the
/// download applies), with their geometries clipped and reprojected as the download does.
/// Each differing row (or column) is then
/// - pending: the package's change log holds the row and the package's value is not its base;
/// - behind: the source's change log holds a change of the row after the package's position,
///   written by another replica or the office;
/// - divergent: anything else (a write past the change logs, an edit a sync dropped).
///
/// Both databases are opened read-only, and read each in one transaction (one consistent state).
import Foundation
import Geodatabase
import Geometry
import PackageFormat
import SQLite
import SourceDrivers

/// Verifies one package against its source.
public final class VerifySession {
    /// How far an ordinate of a reprojected layer may be from the source's transformed one, in
    /// the units of the layer's CRS in the package: far above PROJ's round-off, far below any
    /// edit a person makes.
    public static let tolerance = 1e-6

    public let packageURL: URL
    public let sourcePath: String?
    /// The drivers the source's address is looked up in.
    public let sources: SourceRegistry

    /// - Parameters:
    ///   - package: the package directory (`AREA.pkg`), or its `data.gpkg`.
    ///   - source: the source's address; nil for the one the package names.
    public init(package: URL, source: String? = nil, sources: SourceRegistry = .shared) {
        packageURL = package
        sourcePath = source
        self.sources = sources
    }

    /// Runs the comparison.
    /// - Throws: ``SyncError`` for a missing package or source, or one that is not a package or
    ///   not sync-enabled; `SQLiteError` / `GeodatabaseError` for failures underneath.
    public func run() throws -> VerifyReport {
        let files = try PackageFiles(packageURL)
        let package = try Self.open(files.data.path, as: .notAPackage, "package")
        let state = try PackageSyncState.read(package.connection)
        let sourcePath = try self.sourcePath ?? state.source ?? files.manifest?.source.location ?? {
            throw SyncError(.source, "\(packageURL.path): no --source given and the package has no manifest naming one")
        }()
        let source: any SyncSource
        do {
            source = try sources.openSyncSource(sourcePath, options: SourceOpenOptions(readOnly: true))
        } catch let error as SourceError {
            throw SyncError(.source, error.message)
        } catch let error as GeodatabaseError {
            // A file the driver cannot open as a GeoPackage: said of the source, as of the package.
            throw SyncError(.source, "source \(error.message)")
        }
        // One consistent state of each database; nothing is written, so the end is a rollback.
        try package.connection.execute("BEGIN")
        defer { try? package.connection.execute("ROLLBACK") }
        try source.begin(.read)
        defer { try? source.rollback() }
        // The area and filters the source registered, as a sync applies them.
        let scope = try Reattach.registeredScope(of: state, package: package.connection, at: source)
        let scoped = scope.applied(to: state)
        let setup = try SyncSetup(package: package.connection, source: source, state: scoped, scope: scope,
                                  manifest: files.manifest)
        let comparison = try VerifyComparison(package: package.connection, source: source, state: scoped, setup: setup)
        return VerifyReport(package: packageURL.path, source: sourcePath, tolerance: Self.tolerance,
                            differences: try comparison.differences())
    }

    /// Opens a GeoPackage read-only; a file that is not one is the caller's input error.
    private static func open(_ path: String, as kind: SyncError.Kind, _ role: String) throws -> GeoPackage {
        do { return try GeoPackage(path: path, readOnly: true) } catch let error as GeodatabaseError {
            throw SyncError(kind, "\(role) \(error.message)")
        }
    }
}
