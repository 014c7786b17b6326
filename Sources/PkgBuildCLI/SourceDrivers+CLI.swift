/// The source drivers this command line is built with, registered before any command runs:
/// a source's address is looked up among them (`SourceRegistry`).
import GeoPackageSource
import SourceDrivers

enum CLISourceDrivers {
    /// Registers every driver the CLI links (registering twice changes nothing).
    static func register() {
        SourceRegistry.register(GeoPackageSourceDriver())
    }
}
