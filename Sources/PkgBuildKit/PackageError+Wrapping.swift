/// Turning the errors of the layers below into ``PackageError``, so the public API throws
/// one type. Their messages are kept as they are: they already name the file, the SQL, the
/// CRS or the coordinate.
import Geodatabase
import Geometry
import PackageFormat
import SQLite

extension PackageError {
    /// `error` as a ``PackageError``: itself when it already is one, else the closest kind.
    /// - Parameter context: prefixed to the message when it helps (the path being opened).
    static func wrapping(_ error: any Error, context: String?) -> PackageError {
        let prefix = context.map { "\($0): " } ?? ""
        switch error {
        case let error as PackageError:
            return error
        case let error as GeodatabaseError:
            switch error.kind {
            case .notAGeoPackage: return PackageError(.notAPackage, error.message)
            case .unknownTable: return PackageError(.unknownLayer, error.message)
            case .unknownColumn: return PackageError(.unknownField, error.message)
            case .invalidArgument: return PackageError(.invalidArgument, error.message)
            case .invalidContent, .notEnabled, .notRegistered, .filter: return PackageError(.storage, prefix + error.message)
            }
        case let error as GeometryError:
            switch error.kind {
            case .unknownCRS: return PackageError(.unknownCRS, error.message)
            case .invalidGeometry, .malformedInput: return PackageError(.invalidGeometry, error.message)
            case .transformFailed: return PackageError(.outsideAreaOfUse, error.message)
            case .unsupported, .library: return PackageError(.geometry, error.message)
            }
        case let error as PackageFormatError:
            switch error.kind {
            case .notAPackage, .malformed: return PackageError(.notAPackage, error.message)
            case .write, .absent: return PackageError(.storage, prefix + error.message)
            }
        case let error as SQLiteError:
            return PackageError(.storage, prefix + error.description)
        default:
            return PackageError(.storage, prefix + String(describing: error))
        }
    }
}

extension PackageError {
    /// A field name the layer lacks, with the names it has.
    static func unknownField(_ name: String, in layer: LayerInfo) -> PackageError {
        let names = layer.fields.map(\.name).joined(separator: ", ")
        return PackageError(.unknownField, "layer '\(layer.name)' has no field '\(name)' (fields: \(names))")
    }
}
