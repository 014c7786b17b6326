import Extract
import Foundation

/// The files of a package directory.
struct PackageFiles {
    var data: URL
    var manifest: PackageManifest?

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
        let manifestURL = directory.appendingPathComponent(PackageManifest.fileName)
        manifest = FileManager.default.fileExists(atPath: manifestURL.path) ? try PackageManifest.read(from: manifestURL) : nil
    }
}
