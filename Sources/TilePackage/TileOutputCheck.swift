import Foundation
import SQLite

/// What `tiles -o` may write over. A copy's rename replaces whatever has the output's name, so
/// this is checked before anything is read or written: an existing file is replaced only when
/// asked (`force`), only when it is an MBTiles file, and never when it is the tile source.
public enum TileOutputCheck {
    /// - Parameters:
    ///   - output: the MBTiles file to write.
    ///   - force: whether an existing MBTiles file may be replaced.
    ///   - source: the tile source's file path (nil for a URL).
    /// - Throws: `TilePackageError(.invalidInput)` naming the path and why it is refused.
    public static func check(_ output: String, force: Bool, source: String?) throws {
        if let source, FileIdentity.output(output, overlaps: source) {
            throw TilePackageError(.invalidInput, "refusing to write \(output): it is the tile source \(source) of this run")
        }
        var info = stat()
        guard lstat(output, &info) == 0 else { return try checkDirectory(of: output) }
        if let reason = notReplaceable(output, mode: info.st_mode) {
            throw TilePackageError(.invalidInput, "refusing to write \(output): it \(reason); "
                + "tiles replaces only an MBTiles file, and only with --force")
        }
        guard force else {
            throw TilePackageError(.invalidInput, "\(output) already exists; pass --force to replace it")
        }
    }

    /// Refuses an output whose directory is missing before any tile is fetched.
    static func checkDirectory(of output: String) throws {
        let parent = (output as NSString).deletingLastPathComponent
        var isDirectory: ObjCBool = false
        guard !parent.isEmpty, !(FileManager.default.fileExists(atPath: parent, isDirectory: &isDirectory) && isDirectory.boolValue)
        else { return }
        throw TilePackageError(.invalidInput, "cannot write \(output): directory \(parent) does not exist")
    }

    /// Why the thing at `path` is not an MBTiles file, nil when it is one.
    static func notReplaceable(_ path: String, mode: mode_t) -> String? {
        switch mode & S_IFMT {
        case S_IFLNK: return "is a symbolic link"
        case S_IFDIR: return "is a directory"
        case S_IFREG: break
        default: return "is not a regular file"
        }
        let names: Set<String>
        do {
            // Read-write where it may (nothing is written): a read-only connection to a WAL
            // file leaves the -wal and -shm it made behind.
            let db = try Connection(path: path, mode: FileManager.default.isWritableFile(atPath: path) ? .readWrite : .readOnly)
            names = Set(try db.query("SELECT lower(name) FROM sqlite_master WHERE type IN ('table', 'view')")
                .compactMap { $0.first?.stringValue })
        } catch {
            return "is not an SQLite database"
        }
        if names.contains("gpkg_contents") { return "is a GeoPackage" }
        guard names.contains("metadata"), names.contains("tiles") else {
            return "is an SQLite database but not an MBTiles file (no metadata and tiles tables)"
        }
        return nil
    }
}
