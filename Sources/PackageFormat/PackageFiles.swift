import Foundation

/// A package as found on disk: the one way to open a package directory (`AREA.pkg`) or a bare
/// data.gpkg, shared by sync, inspect, the field kit and the command line, so that they agree
/// on what is a package and say so in the same words.
public struct PackageFiles: Sendable {
    /// The package directory, or the directory a bare data.gpkg lies in.
    public let directory: URL
    public let data: URL
    /// Where the manifest is (or would be) for this package.
    public var manifestURL: URL { directory.appendingPathComponent(PackageManifest.fileName) }
    public var basemapURL: URL { directory.appendingPathComponent(PackageLayout.basemapFileName) }

    /// What a caller needs of the path it was given.
    public enum Expectation: Sendable {
        /// A package directory holding data.gpkg, or a bare data.gpkg, and its manifest readable
        /// when it has one (to sync it, list its changes or conflicts).
        case data
        /// data.gpkg alone (to identify and edit features): editing needs nothing else, so a
        /// damaged manifest does not stop a field crew from working.
        case editing
        /// A package directory, whatever files it lacks (`inspect` reports each).
        case directory
    }

    /// Finds the package's files and reads its manifest, if it has one; no database is opened.
    /// - Throws: ``PackageFormatError``: `notAPackage` when nothing is at `url`, or it is not
    ///   what `expecting` asks (a directory without data.gpkg, a file where a directory is
    ///   due); `malformed` for a manifest that cannot be read (naming the key at fault).
    public init(_ url: URL, expecting: Expectation = .data) throws(PackageFormatError) {
        var isDirectory: ObjCBool = false
        let exists = FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory)
        if expecting == .directory {
            guard exists, isDirectory.boolValue else { throw PackageFormatError(.notAPackage, "\(url.path) is not a package directory") }
            directory = url
            data = url.appendingPathComponent(PackageLayout.dataFileName)
            manifest = try Self.readManifest(in: url)
            return
        }
        guard exists else { throw PackageFormatError(.notAPackage, "package \(url.path) does not exist") }
        if isDirectory.boolValue {
            directory = url
            data = url.appendingPathComponent(PackageLayout.dataFileName)
            guard FileManager.default.fileExists(atPath: data.path) else {
                throw PackageFormatError(.notAPackage, "\(url.path) is not a package: it has no \(PackageLayout.dataFileName)")
            }
        } else {
            directory = url.deletingLastPathComponent()
            data = url
        }
        manifest = expecting == .editing ? nil : try Self.readManifest(in: directory)
    }

    private static func readManifest(in directory: URL) throws(PackageFormatError) -> PackageManifest? {
        let url = directory.appendingPathComponent(PackageManifest.fileName)
        return FileManager.default.fileExists(atPath: url.path) ? try PackageManifest.read(from: url) : nil
    }

    /// The manifest as it was when the package was opened, nil when the package has none (a
    /// bare data.gpkg copied alone) or it was not read (`editing`).
    public let manifest: PackageManifest?

    /// After a re-attach the manifest names the new replica, as data.gpkg does, so `inspect`
    /// and a user reading manifest.json see one identity. Written whole and renamed into place:
    /// a crash leaves the old manifest or the new one, never half of either.
    public func recordReplica(_ replicaID: String) throws(PackageFormatError) {
        guard var updated = manifest, updated.replicaID != replicaID else { return }
        updated.replicaID = replicaID
        do { try updated.encoded().write(to: manifestURL, options: .atomic) } catch {
            throw PackageFormatError(.write, "cannot update \(manifestURL.path) with the new replica \(replicaID): "
                + "\(error.localizedDescription)")
        }
    }
}
