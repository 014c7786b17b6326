/// What `pkgbuild verify` found: every row where a package and its source differ, each with
/// the reason the difference is expected (a pending local edit, a source change the package
/// has not downloaded yet) or not (divergent: something was lost or written past the logs).

/// One row where the package and its source differ.
public struct VerifyDifference: Sendable, Hashable {
    /// Why the row differs, and whether the next sync is expected to settle it.
    public enum Status: String, Sendable, Hashable, CaseIterable {
        /// The package's change log holds a local edit of the row: the next upload carries it.
        case pending
        /// The source's change log holds a change of the row after the package's position,
        /// made by another writer: the next download brings it.
        case behind
        /// No change recorded on either side explains it: a write that bypassed the change
        /// logs, or an edit a sync dropped.
        case divergent
    }

    public var status: Status
    public var table: String
    public var globalID: String
    /// The columns whose values differ (every value column when the row is missing on one side).
    public var columns: [String]
    public var reason: String

    public init(status: Status, table: String, globalID: String, columns: [String], reason: String) {
        self.status = status
        self.table = table
        self.globalID = globalID
        self.columns = columns
        self.reason = reason
    }
}

/// The result of one verification of a package against its source.
public struct VerifyReport: Sendable, Hashable {
    /// The package and the source, as given (or, for the source, as the package names it).
    public var package: String
    public var source: String
    /// How far apart the coordinates of a reprojected layer may be, in the units of the
    /// package's CRS of that layer.
    public var tolerance: Double
    /// Every difference, by table then global id.
    public var differences: [VerifyDifference]

    public init(package: String, source: String, tolerance: Double, differences: [VerifyDifference]) {
        self.package = package
        self.source = source
        self.tolerance = tolerance
        self.differences = differences
    }

    /// The differences of one status, in report order.
    public func differences(_ status: VerifyDifference.Status) -> [VerifyDifference] {
        differences.filter { $0.status == status }
    }

    /// True when some difference has no recorded change to explain it.
    public var isDivergent: Bool { differences.contains { $0.status == .divergent } }
}
