/// The transactions of a sync and their retry: a write lock held past the busy timeout is
/// waited for again, and a transaction whose step says so (a dry run, a stop on conflicts) is
/// rolled back though the step went as planned.
import Foundation
import Geodatabase
import SQLite
import SourceDrivers

extension SyncRun {
    /// Runs `body`, again while it fails only for a reason another try may not meet (the
    /// package's lock held past the busy timeout; at the source, whatever its driver calls
    /// transient: a lock, a serialization failure, a deadlock), until the timeout has passed
    /// once more, or Ctrl-C cut the wait short at a safe point.
    func withRetryOnBusy<T>(_ body: () throws -> T) throws -> T {
        let deadline = Date().addingTimeInterval(options.busyTimeout)
        while true {
            do {
                return try body()
            } catch where isTransient(error) && Date() < deadline {
                try checkCancelled()
                Thread.sleep(forTimeInterval: 0.05)
            }
        }
    }

    private func isTransient(_ error: any Error) -> Bool {
        (error as? SQLiteError)?.isBusy == true || source.isTransient(error)
    }

    /// Opens the source's transaction, retrying while it is transiently refused.
    func beginAtSource(_ purpose: SourceTransaction) throws {
        try withRetryOnBusy { try source.begin(purpose) }
    }

    /// The package's transaction, without change tracking (the apply context keeps the
    /// download's writes out of the change log): committed when the run ends as
    /// ``SyncRunEnd/commit(_:)``, rolled back when it ends as ``SyncRunEnd/rollBack(_:)``.
    func inPackageTransaction(_ tracking: PackageChangeTracking, _ body: () throws -> SyncRunEnd) throws -> SyncReport {
        try Self.returning(body, in: { try tracking.withoutTracking($0) }).report
    }

    /// Runs `body` in `transaction` (one of SQLite's helpers, which commit when their body
    /// returns and roll back when it throws) and returns what it returned; a result that
    /// ``EndsTransaction/rollsBack`` is rolled back instead of committed. The helpers undo
    /// only on a throw, so this is the one place where a throw ends a transaction that went
    /// as planned.
    static func returning<T: EndsTransaction>(_ body: () throws -> T,
                                              in transaction: (() throws -> T) throws -> T) throws -> T {
        try withoutActuallyEscaping(body) { body in
            do {
                return try transaction {
                    let result = try body()
                    if result.rollsBack { throw RolledBack(result: result) }
                    return result
                }
            } catch let rolledBack as RolledBack<T> {
                return rolledBack.result
            }
        }
    }
}

/// The result of a step that ran in a transaction, which says how the transaction ends.
protocol EndsTransaction: Sendable {
    /// True when what the step wrote is undone though the step went as planned.
    var rollsBack: Bool { get }
}

/// How the package's transaction of a run ends, with the report.
enum SyncRunEnd: EndsTransaction {
    /// The package takes what the run wrote (the sync, or the conflicts it stopped on).
    case commit(SyncReport)
    /// A dry run: nothing the run wrote stays.
    case rollBack(SyncReport)

    var report: SyncReport {
        switch self {
        case .commit(let report), .rollBack(let report): report
        }
    }

    var rollsBack: Bool {
        if case .rollBack = self { return true }
        return false
    }
}

/// Carries a result out of a transaction rolled back on purpose (see ``SyncRun/returning(_:in:)``).
private struct RolledBack<T: EndsTransaction>: Error {
    let result: T
}
