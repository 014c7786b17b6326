import GeoPackageSource
import SourceDrivers

/// The source drivers the extractor finds sources through, registered as the CLI registers
/// them at startup (registering twice is harmless). Suites that plan or build call it in
/// their `init`.
func registerSourceDrivers() {
    SourceRegistry.register(GeoPackageSourceDriver())
}
