/// The conflicts recorded in a package, and the decisions `resolve` records for the next sync.
import Foundation
import Geodatabase
import PackageFormat
import SQLite

/// Conflicts of one package, for `conflicts` and `resolve`.
public enum PackageConflicts {
    /// One open conflict and the decision recorded for it, if any.
    public struct Entry: Sendable, Hashable {
        public var conflict: Conflict
        public var decision: ConflictSide?
    }

    /// The open conflicts: unresolved, or carrying a decision the next sync applies.
    public static func list(package url: URL) throws -> [Entry] {
        let files = try PackageFiles(url)
        let package = try GeoPackage(path: files.data.path, readOnly: true)
        return try ConflictStore.open(in: package.connection).map { Entry(conflict: $0.conflict, decision: $0.decision) }
    }

    /// Records that the next sync settles open conflicts by taking `side`: every open conflict
    /// (`globalID` nil), those of one row, or one column of it.
    /// - Returns: how many conflicts the decision covers.
    /// - Throws: ``SyncError`` (`invalidArgument`) when no open conflict matches.
    @discardableResult
    public static func resolve(package url: URL, globalID: String?, column: String?, take side: ConflictSide) throws -> Int {
        let files = try PackageFiles(url)
        let package = try GeoPackage(path: files.data.path)
        let count = try package.connection.withTransaction(.immediate) {
            if side == .package { try refuseUnwinnable(globalID: globalID, in: package.connection) }
            return try ConflictStore.decide(side, globalID: globalID, column: column, in: package.connection)
        }
        guard count > 0 else {
            var what = "open conflict"
            if let globalID { what += " of row \(globalID)" }
            if let column { what += " in column \(column)" }
            throw SyncError(.invalidArgument, "\(url.path) has no \(what)")
        }
        return count
    }

    /// A change the source refuses (a UNIQUE value held, a CHECK) or a clipped layer cannot take
    /// cannot win: taking the package's side would only fail again.
    /// - Throws: ``SyncError`` (`invalidArgument`) naming each such conflict and the way out.
    private static func refuseUnwinnable(globalID: String?, in package: Connection) throws {
        let blocked = try ConflictStore.open(in: package).map(\.conflict)
            .filter { conflict in
                !conflict.kind.isWinnable
                    && (globalID.map { typed in conflict.rows.contains { GlobalID.matches($0, typed: typed) } } ?? true)
            }
        guard !blocked.isEmpty else { return }
        let rows = blocked.map { "\($0.table) \($0.globalID): \($0.message ?? $0.kind.rawValue)" }.joined(separator: "\n  ")
        throw SyncError(.invalidArgument, """
            the package's side cannot win \(blocked.count == 1 ? "this conflict" : "these conflicts"); nothing was recorded:
              \(rows)
            take the source's side for \(blocked.count == 1 ? "it" : "each") (--id GLOBALID --take source) to discard             the local change, or edit the row so the source can take it
            """)
    }
}
