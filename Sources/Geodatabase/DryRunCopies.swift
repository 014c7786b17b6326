import Foundation
import SQLite

/// The files a dry run works on. A dry run applies the whole sync inside transactions it rolls
/// back, which needs write access; a file the user may only read (or one in a directory they
/// may not write, where SQLite cannot make its journal) is copied into a private temporary
/// directory first, and the dry run runs on the copy. Nothing of the user's is written either
/// way. The directory goes when the value does.
public final class DryRunCopies {
    private let enabled: Bool
    private var directory: URL?
    /// What the report should say about the copies made.
    public private(set) var notes: [String] = []

    public init(dryRun: Bool) { enabled = dryRun }

    deinit {
        if let directory { try? FileManager.default.removeItem(at: directory) }
    }

    /// The path to open for `path`: itself, or for a dry run on a file that cannot be written,
    /// a private copy of it.
    /// - Parameter role: `package` or `source`, for the report.
    /// - Throws: ``GeodatabaseError`` (`notAGeoPackage`) naming `path` when it cannot be read
    ///   or copied.
    public func path(for path: String, role: String) throws -> String {
        guard enabled, !Self.isWritable(path) else { return path }
        let directory = try self.directory ?? makeDirectory()
        let copy = directory.appendingPathComponent("\(notes.count)-" + URL(fileURLWithPath: path).lastPathComponent).path
        do {
            try Connection(path: path, mode: .readOnly).copy(to: copy)
        } catch {
            throw GeodatabaseError(.notAGeoPackage, "\(path) is read-only and the dry run cannot copy it: \(error)")
        }
        notes.append("the \(role) \(path) is read-only: the dry run ran on a private copy of it")
        return copy
    }

    private func makeDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("pkgbuild-dry-run-\(UUID().uuidString)")
        do { try FileManager.default.createDirectory(at: url, withIntermediateDirectories: false) } catch {
            throw GeodatabaseError(.invalidArgument, "cannot create \(url.path) for the dry run's private copies: \(error.localizedDescription)")
        }
        directory = url
        return url
    }

    /// Whether SQLite can write the file: the file itself, and its directory (for the journal).
    public static func isWritable(_ path: String) -> Bool {
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
        return access(path, W_OK) == 0 && access(directory, W_OK) == 0
    }
}
