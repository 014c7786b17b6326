/// The driver of the in-memory source: takes `memory:NAME` addresses and hands out the one
/// instance it was made with (for sync, and wrapped in a feature source for `create`), so a
/// test's syncs, its cuts and its checks see the same source.
import SourceDrivers

struct InMemorySourceDriver: SourceDriver {
    let source: InMemorySource

    var name: String { "memory" }

    /// A registry with this driver alone: a sync through it cannot reach a GeoPackage.
    var registry: SourceRegistry { SourceRegistry([self]) }

    func accepts(_ address: String) -> Bool { address.hasPrefix("memory:") }

    func openSyncSource(_ address: String, options: SourceOpenOptions) throws -> any SyncSource {
        guard address == source.displayName else {
            throw SourceError(.notFound, "source \(address) does not exist (this driver holds \(source.displayName))")
        }
        guard !source.isInTransaction else {
            throw SourceError(.unusable, "source \(address) was left with a transaction open")
        }
        return source
    }

    func openFeatureSource(_ address: String) throws -> any FeatureSource {
        guard address == source.displayName else {
            throw SourceError(.notFound, "source \(address) does not exist (this driver holds \(source.displayName))")
        }
        return InMemoryFeatureSource(source: source)
    }
}
