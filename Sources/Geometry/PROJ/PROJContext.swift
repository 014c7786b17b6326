import CPROJ
import Foundation

/// A PROJ context: the database connection, search paths and error log that every CRS and
/// transformer made in it uses.
///
/// Create one per worker and reuse it; opening the PROJ database is the expensive part.
///
/// - Important: Not thread-safe. A context, and every ``CoordinateReferenceSystem`` and
///   ``Transformer`` made in it, must be used by one thread (or one task) at a time.
public final class PROJContext {
    let handle: OpaquePointer

    /// The directories searched for `proj.db` and grids, when the caller chose them.
    public let searchPaths: [String]?

    /// Messages PROJ logged since the last `resetMessages()`, oldest first.
    private(set) var messages: [String] = []

    /// - Parameter searchPaths: directories to search for `proj.db` instead of PROJ's defaults
    ///   (the `PROJ_DATA` environment variable, then the installed data directory).
    /// - Throws: `GeometryError(.library)` when PROJ cannot allocate a context.
    public init(searchPaths: [String]? = nil) throws {
        guard let handle = proj_context_create() else {  // returns NULL when out of memory
            throw GeometryError(.library, "PROJ could not create a context")
        }
        self.handle = handle
        self.searchPaths = searchPaths
        // The log function gets this object back through app_data. Unretained: the context,
        // and with it the log function, is destroyed in deinit before self goes away.
        proj_log_func(handle, Unmanaged.passUnretained(self).toOpaque()) { appData, _, message in
            guard let appData, let message else { return }
            let context = Unmanaged<PROJContext>.fromOpaque(appData).takeUnretainedValue()
            if context.messages.count >= 16 { context.messages.removeFirst() }
            context.messages.append(String(cString: message))
        }
        if let searchPaths {
            // PROJ copies the strings.
            searchPaths.withCStringArray { proj_context_set_search_paths(handle, Int32(searchPaths.count), $0) }
        }
    }

    deinit {
        proj_context_destroy(handle)
    }

    /// The PROJ library version, e.g. `9.1.1`.
    public static var libraryVersion: String { String(cString: proj_info().version) }

    /// The `proj.db` this context uses; nil when PROJ cannot find one.
    public var databasePath: String? {
        proj_context_get_database_path(handle).map { String(cString: $0) }  // NULL when not found
    }

    /// Where PROJ looks for `proj.db`, for error messages.
    var searchedLocations: String {
        if let searchPaths { return searchPaths.joined(separator: ", ") }
        let paths = proj_info().searchpath.map { String(cString: $0) } ?? ""
        return paths.isEmpty ? "PROJ's default locations" : paths
    }

    func resetMessages() { messages.removeAll() }

    /// The logged messages (else PROJ's text for `errno`), for an error message.
    func detail(errno: Int32 = 0) -> String {
        if !messages.isEmpty { return messages.joined(separator: "; ") }
        if errno != 0, let text = proj_context_errno_string(handle, errno) { return String(cString: text) }
        return "no message from PROJ"
    }

    /// The error for PROJ's database being missing, saying where PROJ looked.
    func databaseNotFound() -> GeometryError {
        GeometryError(.unknownCRS,
                      "the PROJ database (proj.db) was not found; searched \(searchedLocations). "
                      + "Install proj-data or set PROJ_DATA to the directory holding proj.db")
    }
}

