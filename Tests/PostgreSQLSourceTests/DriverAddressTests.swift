import PostgreSQLSource
import SourceDrivers
import Testing

@Suite struct DriverAddressTests {
    @Test(arguments: ["PG:host=db dbname=gis", "pg:dbname=gis", "postgresql://crew@db/gis?schemas=field", "postgres://db/gis"])
    func takesLibpqAndGDALAddresses(_ address: String) {
        #expect(PostgreSQLSourceDriver().accepts(address))
    }

    @Test(arguments: ["field.gpkg", "/data/PG.gpkg", "https://example.com/service"])
    func leavesOtherAddresses(_ address: String) {
        #expect(!PostgreSQLSourceDriver().accepts(address))
    }

    @Test func theRegistryPicksPostgreSQLBeforeTheGeoPackageFallback() throws {
        let registry = SourceRegistry([PostgreSQLSourceDriver()])
        #expect(try registry.driver(for: "PG:dbname=gis").name == "PostgreSQL")
    }
}
