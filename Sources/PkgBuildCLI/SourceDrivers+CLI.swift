/// The source drivers this command line is built with, registered before any command runs:
/// a source's address is looked up among them (`SourceRegistry`).
import GeoPackageSource
import PostgreSQLSource
import SourceDrivers

enum CLISourceDrivers {
    /// Registers every driver the CLI links (registering twice changes nothing). PostgreSQL
    /// first: the GeoPackage driver takes every address that is not another backend's.
    static func register() {
        SourceRegistry.register(PostgreSQLSourceDriver())
        SourceRegistry.register(GeoPackageSourceDriver())
    }
}
