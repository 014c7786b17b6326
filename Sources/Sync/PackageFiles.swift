import Extract
import Foundation

/// The files of a package directory.
struct PackageFiles {
    var data: URL
    var manifest: PackageManifest?
    /// Where the manifest is (or would be) for this package.
    var manifestURL: URL

    init(_ url: URL) throws {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
            throw SyncError(.notAPackage, "package \(url.path) does not exist")
        }
        // The package directory, or the directory a bare data.gpkg lies in.
        let directory: URL
        if isDirectory.boolValue {
            directory = url
            data = url.appendingPathComponent(PackageDirectory.dataFileName)
            guard FileManager.default.fileExists(atPath: data.path) else {
                throw SyncError(.notAPackage, "\(url.path) is not a package: it has no \(PackageDirectory.dataFileName)")
            }
        } else {
            directory = url.deletingLastPathComponent()
            data = url
        }
        manifestURL = directory.appendingPathComponent(PackageManifest.fileName)
        manifest = FileManager.default.fileExists(atPath: manifestURL.path) ? try PackageManifest.read(from: manifestURL) : nil
    }

    /// After a re-attach the manifest names the new replica, as data.gpkg does, so `inspect`
    /// and a user reading manifest.json see one identity. Written whole and renamed into place:
    /// a crash leaves the old manifest or the new one, never half of either.
    func recordReplica(_ replicaID: String) throws {
        guard var updated = manifest, updated.replicaID != replicaID else { return }
        updated.replicaID = replicaID
        do { try updated.encoded().write(to: manifestURL, options: .atomic) } catch {
            throw SyncError(.notAPackage, "cannot update \(manifestURL.path) with the new replica \(replicaID): "
                + "\(error.localizedDescription)")
        }
    }
}
