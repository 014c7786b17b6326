/// What a sync is asked to do, and what it did.
import Foundation
import PackageFormat
import SourceDrivers

/// Which way changes travel.
public enum SyncDirection: String, Sendable, Hashable, CaseIterable {
    case bidirectional, upload, download

    var uploads: Bool { self != .download }
    var downloads: Bool { self != .upload }
}

/// The instants at which a test can stop a sync as a crash would (see ``SyncOptions/crashHook``).
public enum SyncCrashPoint: String, Sendable, Hashable, CaseIterable {
    /// The package committed the pending sync id; the source is untouched.
    case pendingRecorded = "pending-recorded"
    /// The upload is written in the open source transaction, not committed.
    case uploadApplied = "upload-applied"
    /// The source committed the upload and the sync id; the package has not finished.
    case sourceCommitted = "source-committed"
    /// The download is written in the open package transaction, not committed.
    case downloadApplied = "download-applied"
}

/// The long steps of a sync, for a progress display.
public enum SyncStage: String, Sendable {
    /// Local changes reconciled with the source, out of the pending ones.
    case upload
    /// Source changes since the last sync brought into the package.
    case download
}

public struct SyncOptions: Sendable {
    /// The source geodatabase; nil for the one the package's manifest names.
    public var source: String?
    public var direction: SyncDirection
    public var policy: ConflictPolicy
    /// Work everything out, report it, and roll back both databases.
    public var dryRun: Bool
    /// Give the package a new replica at the source's current state first (the way out for a
    /// stale copy, a restored source, an unregistered replica): every pending edit and every
    /// row where package and source differ becomes a conflict with no base.
    public var reattach: Bool
    /// Seconds to wait for another writer (another package syncing, an office edit).
    public var busyTimeout: Double
    /// Called at each ``SyncCrashPoint``; a throw stops the sync there, leaving both databases
    /// as a crash would (open transactions roll back, nothing else is cleaned up).
    public var crashHook: (@Sendable (SyncCrashPoint) throws -> Void)?
    /// Called as the upload and the download advance, for a progress display: the step,
    /// changes handled, and their total (0 when not known in advance, as for the download).
    public var progress: (@Sendable (SyncStage, _ done: Int, _ total: Int) -> Void)?
    /// Polled at the safe points of the protocol (before the source commits the upload); once
    /// it answers true the sync stops there with Swift's `CancellationError`, nothing applied
    /// on either side. After the source committed, the sync runs to its end.
    public var isCancelled: (@Sendable () -> Bool)?
    /// The drivers the source's address is looked up in: those the app registered, unless a
    /// caller gives its own (a test's in-memory source).
    public var sources: SourceRegistry = .shared

    public init(source: String? = nil, direction: SyncDirection = .bidirectional, policy: ConflictPolicy = .fail,
                dryRun: Bool = false, reattach: Bool = false, busyTimeout: Double = 120,
                crashHook: (@Sendable (SyncCrashPoint) throws -> Void)? = nil, isCancelled: (@Sendable () -> Bool)? = nil) {
        self.source = source
        self.direction = direction
        self.policy = policy
        self.dryRun = dryRun
        self.reattach = reattach
        self.busyTimeout = busyTimeout
        self.crashHook = crashHook
        self.isCancelled = isCancelled
    }
}

/// Rows written on one side, by kind.
public struct RowCounts: Sendable, Hashable {
    public var inserted = 0
    public var updated = 0
    public var deleted = 0
    public init() {}
    public var total: Int { inserted + updated + deleted }
}

/// A row a sync removed from the package although the source keeps it: it no longer belongs
/// (outside the area, out of the layer's filter, without geometry, unrelated).
public struct DepartedRow: Sendable, Hashable {
    public var table: String
    public var globalID: String
    public var reason: String

    public init(table: String, globalID: String, reason: String) {
        self.table = table
        self.globalID = globalID
        self.reason = reason
    }
}

/// What a sync did (or, in a dry run, would do).
public struct SyncReport: Sendable {
    public enum Status: String, Sendable {
        /// Everything that could go went; nothing is left pending.
        case completed
        /// Stopped on conflicts the policy left unresolved: no row changed on either side, the
        /// conflicts are recorded in the package, and nothing is counted as uploaded or downloaded.
        case stoppedOnConflicts = "stopped-on-conflicts"
        /// Applied, but some changes stay pending (constraint conflicts, download-only layers).
        case completedWithPending = "completed-with-pending"
    }

    public var syncID: String
    public var replicaID: String
    public var source: String
    public var direction: SyncDirection
    public var policy: ConflictPolicy
    public var dryRun: Bool
    public var status: Status
    /// True when an interrupted sync of the same id was found already applied at the source.
    public var resumed: Bool
    public var generationBefore: Int64
    public var generationAfter: Int64
    /// Rows written at the source.
    public var uploaded: RowCounts
    /// Rows written in the package from source changes, rows whose local edit was merged with
    /// source changes included.
    public var downloaded: RowCounts
    /// Rows removed from the package because they no longer belong in it, each with why.
    public var left: [DepartedRow] = []
    /// How many rows left the package.
    public var leftArea: Int { left.count }
    public var conflicts: [Conflict]
    /// Local changes still pending after the sync.
    public var pendingAfter: Int
    /// The replica the package had before `--reattach` gave it ``replicaID``.
    public var reattachedFrom: String? = nil
    /// What the reader should know about how the sync ran (a dry run on a private copy, ...).
    public var notes: [String] = []

    /// True when the sync should end with exit code 2: it stopped on conflicts, or one is
    /// still unresolved. Edits the chosen direction leaves pending are no failure (exit 0).
    public var hasUnresolved: Bool { status == .stoppedOnConflicts || conflicts.contains { $0.resolution == nil } }
}
