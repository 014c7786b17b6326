import Foundation
import Geodatabase
import Geometry
import PostgreSQL
import SourceDrivers
import Testing
import TestSupport
@testable import PostgreSQLSource

/// The feature source's answers besides rows: where it is, whether it can take a replica, its
/// change position, its spatial reference systems, and that an area's pre-filter is one the
/// GiST index answers.
@Suite("PostgreSQL feature source", .enabled(if: PostgreSQLTestServer.isAvailable, Comment(rawValue: PostgreSQLTestServer.unavailableNote)))
struct CreateFeatureSourceTests {
    private func open(_ conninfo: String) throws -> PostgreSQLFeatureSource {
        try #require(try PostgreSQLSourceDriver().openFeatureSource("PG:\(conninfo)") as? PostgreSQLFeatureSource)
    }

    @Test("its location reopens the source, and neither it nor its name holds the password")
    func location() throws {
        let f = try CreateFixture(declareRelationship: false)
        let password = try #require(PostgreSQLTestServer.password)
        try f.psql("GRANT SELECT ON ALL TABLES IN SCHEMA public TO \(PostgreSQLTestServer.passwordRole)")
        let source = try open("\(f.database.conninfo) user=\(PostgreSQLTestServer.passwordRole) password='\(password)'")
        #expect(source.kind == "postgresql")
        #expect(!source.location.contains(password) && !source.displayName.contains(password), "\(source.location)")
        let info = try ConnectionInfo(source.location)
        #expect(info.dbname == f.database.name && info.user == PostgreSQLTestServer.passwordRole && info.schema == "public"
                && !info.hasPassword, "\(source.location)")
        #expect(source.location.hasPrefix("PG:"))
        // A role that can only read cannot register a replica; the superuser can.
        #expect(source.isReadOnly)
        #expect(try open(f.database.conninfo).isReadOnly == false)
    }

    @Test("layers: a geometry_columns table is features, another attributes; a keyless one has no key")
    func layers() throws {
        let f = try CreateFixture(declareRelationship: false)
        try f.psql("CREATE TABLE loose (note text)")
        let layers = try open(f.database.conninfo).layers()
        #expect(layers.map(\.name) == ["parks", "airports", "park_visitors", "loose"])
        #expect(layers.map(\.kind) == [.features, .features, .attributes, .attributes])
        #expect(layers[0].schema.primaryKey == "fid" && layers[0].schema.geometry?.geometryTypeName == "MULTIPOLYGON")
        #expect(layers[0].globalIDColumn == "globalid")
        #expect(layers[3].schema.primaryKey == nil)
        #expect(!layers.contains { $0.name == "spatial_ref_sys" })
    }

    @Test("not sync-enabled: no change position; enabled: the snapshot, its xmin the generation")
    func changePosition() throws {
        let f = try CreateFixture()
        let source = try open(f.database.conninfo)
        #expect(try source.isSyncEnabled() == false)
        #expect(try source.withReadSnapshot { try source.changePosition() } == nil)
        try f.psql("INSERT INTO pkgbuild.tables (table_schema, table_name, key_column, globalid_column) VALUES ('public', 'parks', 'fid', 'globalid')")
        #expect(try source.isSyncEnabled())
        let position = try #require(try source.withReadSnapshot { try source.changePosition() })
        let parts = position.cursor.split(separator: ":", omittingEmptySubsequences: false)
        #expect(parts.count == 3 && Int64(parts[0]) == position.generation, "\(position)")
        // Another database's schema is not this one's.
        try f.psql("CREATE SCHEMA other")
        #expect(try open(f.database.conninfo + " schemas=other").isSyncEnabled() == false)
    }

    @Test("an SRS as spatial_ref_sys defines it: EPSG 4326's WKT, named as it names itself")
    func spatialReferenceSystems() throws {
        let f = try CreateFixture(declareRelationship: false)
        let source = try open(f.database.conninfo)
        let wgs84 = try #require(try source.spatialReferenceSystem(id: 4326))
        #expect(wgs84.organization == "EPSG" && wgs84.organizationCoordsysID == 4326 && wgs84.name == "WGS 84")
        #expect(wgs84.definition == (try f.psql("SELECT srtext FROM spatial_ref_sys WHERE srid = 4326")))
        #expect(try source.spatialReferenceSystem(id: 999_999) == nil)
    }

    @Test("the area's pre-filter is answered by the GiST index")
    func envelopeUsesTheIndex() throws {
        let f = try CreateFixture(declareRelationship: false)
        let connection = try Connection(f.database.conninfo)
        var parameters: [Parameter] = []
        let geometry = GeometryColumnInfo(name: "geom", geometryTypeName: "POINT", srsID: 4326, z: 0, m: 0)
        let condition = PostgreSQLFeatureSource.envelopeCondition(
            geometry, [Envelope(minX: -160, minY: 57, maxX: -150, maxY: 62), Envelope(minX: -150, minY: 60, maxX: -140, maxY: 66)],
            parameters: &parameters)
        // The table is small: without seq scans the planner shows whether the index can serve.
        try connection.execute("SET enable_seqscan = off")
        let plan = try connection.query("EXPLAIN SELECT fid FROM airports WHERE \(condition)", parameters)
            .compactMap { $0.string(0) }.joined(separator: "\n")
        #expect(plan.contains("airports_geom_geom_idx"), "\(plan)")
        let ids = try connection.query("SELECT fid FROM airports WHERE \(condition) ORDER BY fid", parameters).compactMap { try $0.int(0) }
        let expected = try f.psql("""
            SELECT string_agg(fid::text, ',' ORDER BY fid) FROM airports WHERE geom && ST_MakeEnvelope(-160, 57, -150, 62, 4326)
            OR geom && ST_MakeEnvelope(-150, 60, -140, 66, 4326)
            """)
        #expect(ids.map(String.init).joined(separator: ",") == expected && !ids.isEmpty)
    }
}
