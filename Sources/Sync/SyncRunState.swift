/// What one run of the sync protocol learns as it goes, handed from step to step
/// (`SyncRun.swift` runs them): the local changes it carries, what the upload settled, the rows
/// the download must leave alone or leave for a later one, and the report.
import Geodatabase
import PackageFormat

struct SyncRunState {
    /// The local changes this sync carries: those through the position the pending sync
    /// recorded, read from the package's log when needed.
    var carried: CarriedChanges
    /// Rows edited after that position (an interrupted run recorded it earlier): they wait for
    /// the next sync, and the download leaves them be.
    var editedAfterPosition: Set<RowKey>
    /// Carried rows whose local change stays pending after this sync: those of unresolved
    /// conflicts the source cannot lose, or all of them when the direction uploads nothing.
    var keptPending = Set<RowKey>()
    /// Uploaded rows the download brings back (see ``UploadOutcome/toBring``); every carried
    /// row when the upload was an interrupted run's.
    var toBring: [UploadedRow] = []
    /// Rows the download does not overwrite: a pending local change of theirs is reconciled
    /// next time. Set when the download begins.
    var leftAlone = Set<RowKey>()
    /// Rows left alone that the download had a source change for: the next download brings them.
    var deferred = Set<RowKey>()
    var report: SyncReport

    /// The rows the package keeps pending (counted in the report) once the sync is over.
    var pendingAfter: Int { keptPending.count + editedAfterPosition.count }

    /// What the upload returned becomes the run's: its conflicts and counts, and the rows the
    /// download must bring back.
    mutating func take(_ outcome: UploadOutcome) {
        report.conflicts = outcome.conflicts
        report.uploaded = outcome.counts
        toBring = outcome.toBring
    }

    /// Once the upload went, the carried rows that stay pending: those of unresolved conflicts
    /// the source cannot lose.
    mutating func keepPendingAfterUpload() {
        for conflict in report.conflicts where !conflict.kind.isWinnable && conflict.resolution == nil {
            for globalID in conflict.rows { keptPending.insert(RowKey(conflict.table, globalID)) }
        }
    }

    /// A sync that uploads nothing keeps every carried row pending, and its download leaves
    /// them alone.
    mutating func keepPending(_ carriedKeys: [RowKey]) {
        keptPending.formUnion(carriedKeys)
    }

    /// The rows the download leaves alone: those that stay pending.
    mutating func leaveAloneWhatStaysPending() {
        leftAlone = keptPending.union(editedAfterPosition)
    }
}
