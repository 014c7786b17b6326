import Foundation
#if canImport(Glibc)
import Glibc
import PackageFormat
#endif

/// The package directory being built: everything is written under `AREA.pkg.partial` beside
/// the output and renamed into place only when complete, so no reader ever sees half a package
/// under the final name.
///
/// An interrupted run leaves the `.partial` directory with a `build.json` naming the request it
/// belongs to. A re-run of the same request resumes it (the basemap keeps the tiles already
/// written; data.gpkg is always extracted afresh, because one consistent generation of the
/// source must be read in one transaction); a different request discards it.
///
/// A run that registers its replica first records it in `pending-replica.json`, so that when
/// it stops before the rename, the next run for that output finds the pending replica
/// (``abandonedReplica``) and can unregister it.
public struct PackageDirectory: Sendable {
    public static let stateFileName = "build.json"
    public static let pendingReplicaFileName = "pending-replica.json"

    /// A replica an earlier, unfinished run registered at its source.
    public struct PendingReplica: Sendable, Hashable, Codable {
        public var id: String
        public var source: String
    }

    /// Where the package will be.
    public let finalURL: URL
    /// Where it is built.
    public let stagingURL: URL
    /// True when a previous run of the same request left work here that this run continues.
    public let resumed: Bool
    /// The replica an earlier, unfinished run for this output registered, if it recorded one.
    public let abandonedReplica: PendingReplica?

    public var dataURL: URL { stagingURL.appendingPathComponent(PackageLayout.dataFileName) }
    public var basemapURL: URL { stagingURL.appendingPathComponent(PackageLayout.basemapFileName) }
    public var manifestURL: URL { stagingURL.appendingPathComponent(PackageManifest.fileName) }

    /// The staging directory used for an output path.
    public static func stagingURL(for output: URL) -> URL {
        output.deletingLastPathComponent()
            .appendingPathComponent(output.lastPathComponent + ".partial")
    }

    /// Checks that the output may be written, without touching anything.
    /// - Parameter inputs: the run's input files, by role (`the features source`): the output
    ///   may never be one of them or hold one, however the path is spelled.
    /// - Throws: `ExtractError` (`.output`) when the output is an input, exists and `force` is
    ///   false, exists and is not a package this tool may replace (``replaceRefusal(_:)``), or
    ///   when its parent directory does not exist.
    public static func checkOutput(_ output: URL, force: Bool, inputs: [(role: String, path: String)] = []) throws {
        let fm = FileManager.default
        if let reason = inputRefusal(output, inputs: inputs) {
            throw ExtractError(.output, "refusing to write \(output.path): \(reason)")
        }
        if let reason = replaceRefusal(output) {
            throw ExtractError(.output, "refusing to replace \(output.path): \(reason); "
                + "create replaces only a pkgbuild package, and only with --force")
        }
        var exists = stat()
        if lstat(output.path, &exists) == 0 && !force {
            throw ExtractError(.output, "\(output.path) already exists; pass --force to replace it")
        }
        var isDirectory: ObjCBool = false
        let parent = output.deletingLastPathComponent()
        guard fm.fileExists(atPath: parent.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw ExtractError(.output, "cannot write \(output.path): directory \(parent.path) does not exist")
        }
        try checkStaging(stagingURL(for: output))
    }

    /// The staging name is ours to discard only when an earlier build left it (its build.json).
    private static func checkStaging(_ staging: URL) throws {
        var info = stat()
        guard lstat(staging.path, &info) == 0 else { return }
        let state = staging.appendingPathComponent(stateFileName).path
        let isDirectory = info.st_mode & S_IFMT == S_IFDIR
        let empty = (try? FileManager.default.contentsOfDirectory(atPath: staging.path))?.isEmpty == true
        guard isDirectory, empty || FileManager.default.fileExists(atPath: state) else {
            throw ExtractError(.output, "\(staging.path) exists and is not an unfinished build of pkgbuild's; "
                + "move it away (a package is built under that name before it is renamed into place)")
        }
    }

    /// Opens the staging directory for a request, resuming or discarding what an earlier run left.
    /// - Parameters:
    ///   - output: the final package path (`AREA.pkg`).
    ///   - fingerprint: identifies the request (same arguments, same source): equal fingerprints
    ///     resume, different ones discard.
    ///   - force: whether an existing package may be replaced.
    ///   - inputs: the run's input files (see ``checkOutput(_:force:inputs:)``).
    public static func open(output: URL, fingerprint: String, force: Bool,
                            inputs: [(role: String, path: String)] = []) throws -> PackageDirectory {
        try checkOutput(output, force: force, inputs: inputs)
        let fm = FileManager.default
        let staging = stagingURL(for: output)
        let state = staging.appendingPathComponent(stateFileName)
        var resumed = false
        var abandoned: PendingReplica?
        if fm.fileExists(atPath: staging.path) {
            let pendingURL = staging.appendingPathComponent(pendingReplicaFileName)
            abandoned = (try? Data(contentsOf: pendingURL)).flatMap { try? JSONDecoder().decode(PendingReplica.self, from: $0) }
            let previous = (try? String(contentsOf: state, encoding: .utf8)) ?? ""
            if previous == fingerprint {
                resumed = true
                // data.gpkg is never resumed: a fresh read transaction gives one generation.
                for name in [PackageLayout.dataFileName, PackageLayout.dataFileName + "-journal", PackageLayout.dataFileName + "-wal",
                             PackageLayout.dataFileName + "-shm", PackageManifest.fileName, pendingReplicaFileName] {
                    try? fm.removeItem(at: staging.appendingPathComponent(name))
                }
            } else {
                do { try fm.removeItem(at: staging) } catch {
                    throw ExtractError(.output, "cannot discard the unfinished build \(staging.path): "
                        + error.localizedDescription)
                }
            }
        }
        do {
            try fm.createDirectory(at: staging, withIntermediateDirectories: false)
        } catch where resumed {
            // Resuming: the directory is already there.
        } catch {
            throw ExtractError(.output, "cannot create \(staging.path): \(error.localizedDescription)")
        }
        do {
            try Data(fingerprint.utf8).write(to: state, options: .atomic)
        } catch {
            throw ExtractError(.output, "cannot write \(state.path): \(error.localizedDescription)")
        }
        return PackageDirectory(finalURL: output, stagingURL: staging, resumed: resumed, abandonedReplica: abandoned)
    }

    /// Records the replica this run is about to register, for a later run to find if this
    /// one stops before ``commit()``.
    public func recordPendingReplica(id: String, source: String) throws {
        let url = stagingURL.appendingPathComponent(Self.pendingReplicaFileName)
        let record = PendingReplica(id: id, source: URL(fileURLWithPath: source).standardizedFileURL.path)
        do { try JSONEncoder().encode(record).write(to: url, options: .atomic) } catch {
            throw ExtractError(.output, "cannot write \(url.path): \(error.localizedDescription)")
        }
    }

    /// Throws away the work in progress (after a failure that should not be resumed).
    public func discard() {
        try? FileManager.default.removeItem(at: stagingURL)
    }

    /// Moves the finished package into place: a rename when nothing is there, an atomic
    /// exchange with the old package when replacing one (`--force`), the old one then removed.
    /// The build's own files (build.json, pending-replica.json) go only after the package is in
    /// place: killed before, the `.partial` is still a build a re-run knows (and whose replica
    /// it retires); killed after, the package holds them, and they are harmless.
    public func commit() throws {
        try moveIntoPlace()
        let fm = FileManager.default
        try? fm.removeItem(at: finalURL.appendingPathComponent(Self.stateFileName))
        try? fm.removeItem(at: finalURL.appendingPathComponent(Self.pendingReplicaFileName))
    }

    private func moveIntoPlace() throws {
        let fm = FileManager.default
        if fm.fileExists(atPath: finalURL.path) {
            // Checked again: a build takes a while, and the old package may have been edited
            // (or filled with other files) since ``open`` looked.
            if let reason = Self.replaceRefusal(finalURL) {
                throw ExtractError(.output, "refusing to replace \(finalURL.path): \(reason)")
            }
            if Self.exchange(stagingURL.path, finalURL.path) {
                try? fm.removeItem(at: stagingURL)  // now holds the old package
                return
            }
            // No atomic exchange on this filesystem: move the old package aside first, so
            // there is always either the old or the new package to recover.
            let aside = finalURL.deletingLastPathComponent()
                .appendingPathComponent(finalURL.lastPathComponent + ".old-\(UUID().uuidString.prefix(8))")
            do {
                try fm.moveItem(at: finalURL, to: aside)
                try fm.moveItem(at: stagingURL, to: finalURL)
            } catch {
                throw ExtractError(.output, "cannot replace \(finalURL.path): \(error.localizedDescription)")
            }
            try? fm.removeItem(at: aside)
            return
        }
        guard rename(stagingURL.path, finalURL.path) == 0 else {
            throw ExtractError(.output, "cannot rename \(stagingURL.path) to \(finalURL.path): "
                + String(cString: strerror(errno)))
        }
    }

    /// `renameat2(RENAME_EXCHANGE)`: Swift's Glibc module does not declare it, so it is looked
    /// up at run time. False when the call or the filesystem does not support it.
    private static func exchange(_ a: String, _ b: String) -> Bool {
        typealias RenameAt2 = @convention(c) (Int32, UnsafePointer<CChar>, Int32, UnsafePointer<CChar>, UInt32) -> Int32
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "renameat2") else { return false }
        let renameat2 = unsafeBitCast(symbol, to: RenameAt2.self)
        let atFDCWD: Int32 = -100
        let renameExchange: UInt32 = 2
        return renameat2(atFDCWD, a, atFDCWD, b, renameExchange) == 0
    }
}
