import GeoPackageSource
import SourceDrivers

/// The source drivers this build links, registered before any command runs: commands find a
/// source's driver by its address through `SourceRegistry`.
enum BuiltInSourceDrivers {
    /// Registers them (once: registering again changes nothing).
    static func register() {
        SourceRegistry.register(GeoPackageSourceDriver())
    }
}
