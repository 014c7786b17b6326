import Foundation
import Geodatabase
import PackageFormat
import SQLite
import TilePackage
#if canImport(Glibc)
import Glibc
#endif

/// What `create --force` may replace: only a package this tool built, holding nothing but the
/// package's own files and no edit that has not been synced. Anything else at the output's
/// name (a source GeoPackage, a plain file, a folder of the user's) is refused, since the
/// replacement deletes it.
extension PackageDirectory {
    /// Why the thing at `output` may not be replaced, nil when it is a package that may.
    static func replaceRefusal(_ output: URL) -> String? {
        var info = stat()
        guard lstat(output.path, &info) == 0 else { return nil }
        switch info.st_mode & S_IFMT {
        case S_IFDIR: break
        case S_IFLNK: return "it is a symbolic link, not a package directory"
        default: return "it is a file, not a package directory"
        }
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: output.path)) ?? []
        guard entries.contains(PackageManifest.fileName),
              let manifest = try? PackageManifest.read(from: output.appendingPathComponent(PackageManifest.fileName)),
              manifest.tool.name == "pkgbuild" else {
            return "it is a directory but not a pkgbuild package (it has no manifest.json written by pkgbuild)"
        }
        // A build killed just after its rename leaves its own two files in the package.
        let buildFiles: Set<String> = [stateFileName, pendingReplicaFileName]
        let foreign = entries.filter { !PackageLayout.fileNames.contains($0) && !buildFiles.contains($0) }.sorted()
        if !foreign.isEmpty {
            return "it holds files that are not the package's (\(foreign.joined(separator: ", ")))"
        }
        return dataRefusal(output.appendingPathComponent(PackageLayout.dataFileName))
    }

    /// Why the package's data.gpkg may not be replaced: it is not ours, or it holds edits
    /// that were never synced (replacing the package would lose them).
    private static func dataRefusal(_ data: URL) -> String? {
        // Read-write where it may (nothing is written): a read-only connection to a WAL file
        // leaves the -wal and -shm it made behind.
        let mode: Connection.OpenMode = FileManager.default.isWritableFile(atPath: data.path) ? .readWrite : .readOnly
        guard let db = try? Connection(path: data.path, mode: mode),
              (try? tableExists("pkgbuild_package", in: db)) == true else {
            return "its \(PackageLayout.dataFileName) is not a pkgbuild package's (no pkgbuild_package table)"
        }
        guard (try? tableExists(SyncSchema.editsTable, in: db)) == true else {
            return nil
        }
        let pending: Int
        do { pending = try PackageChangeTracking(connection: db).pendingChanges().count } catch {
            return "its local edits cannot be read (\(error)), so replacing it could lose them"
        }
        guard pending > 0 else { return nil }
        return "it holds \(pending) local edit\(pending == 1 ? "" : "s") not yet synced; sync the package "
            + "(pkgbuild sync) or move it away first"
    }

    /// Whether writing `output` would replace one of the run's inputs (the features source,
    /// a tile file), compared as files, not as path strings.
    static func inputRefusal(_ output: URL, inputs: [(role: String, path: String)]) -> String? {
        for input in inputs where FileIdentity.output(output.path, overlaps: input.path) {
            return "it is, or holds, \(input.role) \(input.path) of this run"
        }
        return nil
    }
}
