import Extract
import Geodatabase
import Geometry
import HTTP
import PackageFormat
import PkgBuildKit
import SourceDrivers
import SQLite
import Sync
import TilePackage

/// The `kind` of a `--json` error: one stable word a script can switch on, whatever module
/// the error came from. The README lists them ("Errors under --json"); a new kind is added
/// there too, and an existing one never changes meaning.
enum ErrorKind {
    /// - Parameter message: the error's words; a lock another process held is `locked` whichever
    ///   module's error carries SQLite's report of it.
    static func of(_ error: any Error, message: String) -> String {
        if message.contains(SQLiteError.heldByAnotherProcess) { return "locked" }
        return of(error)
    }

    static func of(_ error: any Error) -> String {
        switch error {
        case is UsageError: return "usage"
        case is CancellationError, is Swift.CancellationError: return "interrupted"
        case let e as ExtractError: return of(e.kind)
        case let e as SyncError: return of(e.kind)
        case let e as GeodatabaseError: return of(e.kind)
        case let e as PackageError: return of(e.kind)
        case is PackageFormatError: return "package"
        case is SourceError: return "source"
        case let e as TilePackageError:
            switch e.kind {
            case .invalidInput: return "tiles"
            case .io: return "io"
            case .incomplete: return "incomplete"
            }
        case let e as HTTPError: return e.kind == .cancelled ? "interrupted" : "http"
        case is GeometryError: return "geometry"
        case let e as SQLiteError: return of(e)
        default: return "failure"
        }
    }

    private static func of(_ kind: ExtractError.Kind) -> String {
        switch kind {
        case .source: return "source"
        case .area: return "area"
        case .crs: return "crs"
        case .layer: return "layer"
        case .corruptGeometry: return "data"
        case .output: return "output"
        case .registration: return "registration"
        case .package: return "package"
        case .cancelled: return "interrupted"
        case .incomplete: return "incomplete"
        case .failure: return "failure"
        }
    }

    private static func of(_ kind: SyncError.Kind) -> String {
        switch kind {
        case .notAPackage: return "package"
        case .source: return "source"
        case .schemaChanged: return "schema_changed"
        case .invalidArgument: return "invalid_argument"
        case .unsupportedLayer: return "layer"
        case .staleCopy: return "stale_copy"
        case .restoredSource: return "restored_source"
        case .unregistered: return "unregistered"
        }
    }

    private static func of(_ kind: GeodatabaseError.Kind) -> String {
        switch kind {
        case .notAGeoPackage: return "not_a_geopackage"
        case .unknownTable: return "layer"
        case .unknownColumn: return "field"
        case .invalidContent: return "data"
        case .invalidArgument: return "invalid_argument"
        case .filter: return "where"
        case .notEnabled: return "not_enabled"
        case .notRegistered: return "not_registered"
        }
    }

    private static func of(_ kind: PackageError.Kind) -> String {
        switch kind {
        case .notAPackage: return "package"
        case .unknownLayer: return "layer"
        case .unknownFeature: return "feature"
        case .unknownField: return "field"
        case .wrongType: return "wrong_type"
        case .constraintViolation: return "constraint"
        case .readOnlyField: return "read_only_field"
        case .wrongGeometryType: return "geometry_type"
        case .invalidGeometry: return "geometry"
        case .outsideAreaOfUse: return "outside_area_of_use"
        case .unknownCRS: return "crs"
        case .invalidArgument: return "invalid_argument"
        case .storage: return "failure"
        case .geometry: return "failure"
        case .sync: return "sync"
        }
    }

    private static func of(_ error: SQLiteError) -> String {
        if error.isBusy { return "locked" }
        if error.isReadOnly { return "read_only" }
        if error.isFileProblem { return "not_a_database" }
        return "failure"
    }
}
