/// The GeoPackage driver: a GeoPackage file as a source, addressed by its path (to cut packages
/// from; to sync with once `pkgbuild source enable` prepared it).
import Foundation
import Geodatabase
import SourceDrivers

/// Opens GeoPackage sources.
public struct GeoPackageSourceDriver: SourceDriver {
    public init() {}

    public var name: String { "GeoPackage" }

    /// A path: anything that is not another backend's connection string (`PG:…`) or URI
    /// (`scheme://…`).
    public func accepts(_ address: String) -> Bool {
        !address.hasPrefix("PG:") && !address.contains("://")
    }

    /// - Throws: ``SourceError``: `notFound` for a missing file, `notEnabled` for a
    ///   GeoPackage that `pkgbuild source enable` has not prepared, `unusable` for a file a
    ///   dry run cannot copy; `GeodatabaseError` (`notAGeoPackage`) for a file that is not one.
    public func openSyncSource(_ address: String, options: SourceOpenOptions) throws -> any SyncSource {
        guard FileManager.default.fileExists(atPath: address) else {
            throw SourceError(.notFound, "source \(address) does not exist")
        }
        let copies = DryRunCopies(dryRun: options.dryRun)
        let path: String
        do { path = try copies.path(for: address, role: "source") } catch {
            throw SourceError(.unusable, "\(error)")
        }
        let source = try GeoPackageSyncSource(path: path, displayName: address, options: options, copies: copies)
        guard try source.geodatabase.isEnabled() else {
            throw SourceError(.notEnabled, "source \(address) is not sync-enabled")
        }
        return source
    }

    /// - Throws: ``SourceError``: `notFound` for a missing file, `unusable` for one that is
    ///   not a GeoPackage this user can read.
    public func openFeatureSource(_ address: String) throws -> any FeatureSource {
        guard FileManager.default.fileExists(atPath: address) else {
            throw SourceError(.notFound, "source \(address) does not exist")
        }
        return try GeoPackageFeatureSource(path: address)
    }
}
