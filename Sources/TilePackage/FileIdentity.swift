import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The file a path names, through symbolic links: two paths name the same file when their
/// device and inode agree, whatever their spelling (`..`, a symbolic link, a hard link).
///
/// Used to keep a run from replacing one of its own inputs: comparing path strings misses
/// `link.gpkg -> src.gpkg` and a second hard link to the same inode.
public struct FileIdentity: Hashable, Sendable {
    let device: UInt64
    let inode: UInt64

    /// nil when nothing (or a dangling link) is at `path`.
    public init?(path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
    }

    /// Whether writing `output` would replace `input`, or a directory that holds it: the same
    /// file, one of `input`'s enclosing directories, or (when `output` is a directory) a
    /// directory holding a link to it.
    public static func output(_ output: String, overlaps input: String) -> Bool {
        guard let target = FileIdentity(path: output), let source = FileIdentity(path: input) else { return false }
        if target == source { return true }
        // The input's real location, walked up: `-o DIR` where DIR holds the input.
        var directory = URL(fileURLWithPath: input).resolvingSymlinksInPath().deletingLastPathComponent()
        while directory.path != "/" {
            if FileIdentity(path: directory.path) == target { return true }
            directory.deleteLastPathComponent()
        }
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: output)) ?? []
        return entries.contains { FileIdentity(path: output + "/" + $0) == source }
    }
}
