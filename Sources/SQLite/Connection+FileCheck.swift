import CSQLite
import Foundation

/// Checks that say what is wrong with a database *file* in words, at open, instead of SQLite's
/// own report: "unable to open database file" for a missing file, "disk I/O error" for a
/// directory, and "file is not a database" only from the first statement, with its SQL.
extension Connection {
    /// Refuses a path that cannot be an existing database (missing, or a directory) before
    /// SQLite sees it. `SQLITE_CANTOPEN`, as SQLite itself reports a missing file.
    static func checkExistingFile(_ path: String) throws {
        var info = stat()
        guard stat(path, &info) == 0 else {
            let reason = errno == ENOENT ? "no such file" : String(cString: strerror(errno))
            throw SQLiteError(extendedCode: SQLITE_CANTOPEN, message: reason, path: path)
        }
        if (info.st_mode & S_IFMT) == S_IFDIR {
            throw SQLiteError(extendedCode: SQLITE_CANTOPEN, message: "it is a directory, not a database file",
                              path: path)
        }
    }

    /// Refuses a database to create (or open when present) at a path that is a directory, or
    /// whose directory is missing: SQLite reports both as "unable to open database file".
    static func checkParentDirectory(_ path: String) throws {
        var info = stat()
        if stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR {
            throw SQLiteError(extendedCode: SQLITE_CANTOPEN, message: "it is a directory, not a database file",
                              path: path)
        }
        let parent = (path as NSString).deletingLastPathComponent
        guard !parent.isEmpty else { return }  // the working directory
        let reason: String
        if stat(parent, &info) == 0 {
            guard (info.st_mode & S_IFMT) != S_IFDIR else { return }
            reason = "\(parent) is not a directory"
        } else {
            reason = errno == ENOENT ? "directory \(parent) does not exist"
                : "directory \(parent): \(String(cString: strerror(errno)))"
        }
        throw SQLiteError(extendedCode: SQLITE_CANTOPEN, message: reason, path: path)
    }

    /// Reads page 1 at once, so a file that is not a database (or is damaged there) is refused
    /// at open, naming the file, rather than by whichever statement runs first. Other failures
    /// (a writer's lock, ...) are left for the statements, which wait under the busy timeout.
    static func checkIsDatabase(_ db: OpaquePointer, path: String) throws {
        let rc = sqlite3_exec(db, "PRAGMA schema_version", nil, nil, nil)
        switch rc & 0xFF {
        case SQLITE_NOTADB:
            throw SQLiteError(extendedCode: SQLITE_NOTADB, message: "it is not an SQLite database", path: path)
        case SQLITE_CORRUPT:
            throw SQLiteError(extendedCode: SQLITE_CORRUPT,
                              message: "it is damaged (SQLite reports: database disk image is malformed)", path: path)
        default:
            return
        }
    }

    /// Whether `path` names a file on disk (not `:memory:`, a temporary database or a URI).
    static func namesFile(_ path: String, uri: Bool) -> Bool {
        !uri && !path.isEmpty && path != ":memory:"
    }
}
