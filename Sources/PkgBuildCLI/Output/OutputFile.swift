import Foundation

/// Files a command was asked to write besides its output (`inspect --svg`, `changes --changeset`).
enum OutputFile {
    /// Writes `data` to `path`, replacing a file there.
    /// - Throws: ``Failure`` naming the path and why, in words (Foundation on Linux says only
    ///   "NSCocoaErrorDomain error 512" for a directory in the way).
    static func write(_ data: Data, to path: String) throws(Failure) {
        do { try data.write(to: URL(fileURLWithPath: path)) } catch {
            throw Failure(message: "cannot write \(path): \(reason(path, error))")
        }
    }

    struct Failure: Error, CustomStringConvertible {
        var message: String
        var description: String { message }
    }

    private static func reason(_ path: String, _ error: any Error) -> String {
        let fm = FileManager.default
        var isDirectory: ObjCBool = false
        if fm.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue { return "it is a directory" }
        let parent = (path as NSString).deletingLastPathComponent
        let directory = parent.isEmpty ? "." : parent
        guard fm.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
            return "directory \(directory) does not exist"
        }
        if !fm.isWritableFile(atPath: directory) || (fm.fileExists(atPath: path) && !fm.isWritableFile(atPath: path)) {
            return "permission denied"
        }
        return error.localizedDescription
    }
}
