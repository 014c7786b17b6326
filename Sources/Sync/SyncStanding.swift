/// The registry check every sync makes before it writes (see `ReplicaStanding`).
import Geodatabase
import PackageFormat
import SourceDrivers

extension SyncSession {
    /// Throws the refusal when the source's registry says the package may not sync (a stale
    /// copy, a restored source, an unregistered replica), after noting it at the source.
    /// - Returns: whether the sync resumes one the source already applied.
    @discardableResult
    /// - Parameter package: the package as the user named it, for the way out.
    static func requireStanding(_ state: PackageSyncState, at source: any SyncSource, sourcePath: String,
                                package: String, note: Bool) throws -> Bool {
        switch try source.standing(of: state.history) {
        case .current: return false
        case .resuming: return true
        case .refused(let refusal):
            // The note is what lets `source status` show the refusal; a source this user may
            // only read cannot take it, and the refusal stands all the same.
            if note { try? source.noteRefusal(replicaID: state.replicaID, syncID: state.pendingSyncID, refusal) }
            throw SyncError(refusal.reason.errorKind, "sync refused by \(sourcePath): \(refusal.message(package: package))")
        }
    }
}

extension ReplicaStanding.Refusal.Reason {
    var errorKind: SyncError.Kind {
        switch self {
        case .staleCopy: .staleCopy
        case .restoredSource: .restoredSource
        case .unregistered, .unknownReplica: .unregistered
        }
    }
}
