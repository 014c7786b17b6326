/// Choosing a source by its address: the drivers an app links, registered once, and the one
/// factory that asks them in turn. Sync and the field kit know only the protocols; the CLI
/// registers the drivers it is built with, so an app that syncs with GeoPackage sources alone
/// links no client library of another database.
import Diagnostics
import Synchronization

/// How a driver opens a source for sync.
public struct SourceOpenOptions: Sendable, Hashable {
    /// How long a write waits for another writer's lock, in seconds.
    public var busyTimeout: Double
    /// A dry run: nothing the sync writes stays; a driver that cannot write the source (a
    /// read-only file) may work on a private copy, and says so in its notes.
    public var dryRun: Bool
    /// Only read (`verify`): the driver opens the source so that nothing can be written.
    public var readOnly: Bool

    public init(busyTimeout: Double = 120, dryRun: Bool = false, readOnly: Bool = false) {
        (self.busyTimeout, self.dryRun, self.readOnly) = (busyTimeout, dryRun, readOnly)
    }
}

/// One backend's driver.
public protocol SourceDriver: Sendable {
    /// The backend's name, for messages (`GeoPackage`, `PostgreSQL`).
    var name: String { get }
    /// True when `address` is one of this backend's (by its form only: nothing is opened).
    func accepts(_ address: String) -> Bool
    /// Opens the source at `address` for one sync.
    /// - Throws: ``SourceError`` naming the address and the problem.
    func openSyncSource(_ address: String, options: SourceOpenOptions) throws -> any SyncSource
    /// Opens the source at `address` read only, for one `create` or `estimate`.
    /// - Throws: ``SourceError`` naming the address and the problem.
    func openFeatureSource(_ address: String) throws -> any FeatureSource
}

/// What kind of failure a source reports before any sync logic runs.
public enum SourceErrorKind: String, Sendable, Hashable, CaseIterable {
    /// No registered driver takes the address.
    case noDriver = "no_driver"
    /// The address names nothing (a missing file, a database that is not there).
    case notFound = "not_found"
    /// The source exists but is not sync-enabled.
    case notEnabled = "not_enabled"
    /// It cannot be opened, read or written as the sync needs.
    case unusable
}

public typealias SourceError = KindedError<SourceErrorKind>

/// The drivers an app registered.
public struct SourceRegistry: Sendable {
    public private(set) var drivers: [any SourceDriver]

    public init(_ drivers: [any SourceDriver] = []) {
        self.drivers = drivers
    }

    /// The driver that takes `address`: the first registered that accepts it.
    /// - Throws: ``SourceError`` (`noDriver`) naming the address and the backends registered.
    public func driver(for address: String) throws -> any SourceDriver {
        if let driver = drivers.first(where: { $0.accepts(address) }) { return driver }
        let known = drivers.map(\.name).joined(separator: ", ")
        throw SourceError(.noDriver, """
            no source driver takes '\(SourceAddress.redacted(address))' (this build has: \(known.isEmpty ? "none" : known))
            """)
    }

    /// Opens `address` for sync with the driver that takes it.
    public func openSyncSource(_ address: String, options: SourceOpenOptions) throws -> any SyncSource {
        try driver(for: address).openSyncSource(address, options: options)
    }

    /// Opens `address` for `create` or `estimate` with the driver that takes it.
    public func openFeatureSource(_ address: String) throws -> any FeatureSource {
        try driver(for: address).openFeatureSource(address)
    }

    /// The drivers registered for the whole process (the CLI's, or an app's).
    public static var shared: SourceRegistry { registered.withLock { $0 } }

    /// Adds a driver for the whole process; a driver of a name already registered is not
    /// added twice.
    public static func register(_ driver: any SourceDriver) {
        registered.withLock { registry in
            guard !registry.drivers.contains(where: { $0.name == driver.name }) else { return }
            registry.drivers.append(driver)
        }
    }

    private static let registered = Mutex(SourceRegistry())
}
