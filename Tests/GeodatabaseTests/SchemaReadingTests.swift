import Foundation
import Geodatabase
import SQLite
import TestSupport
import Testing

@Suite struct SchemaReadingTests {
    @Test func readsGDALWrittenParks() throws {
        let connection = try Connection(path: TestData.url("ne_parks.gpkg").path, mode: .readOnly)
        let schema = try GeoPackageSchema.read(from: connection)
        let parks = try #require(schema.layer(named: "parks"))
        #expect(parks.kind == .features)
        #expect(parks.primaryKey == "fid")
        #expect(parks.hasSpatialIndex)
        #expect(parks.globalIDColumn == nil)
        #expect(parks.geometryColumn == GeometryColumnInfo(name: "geom", geometryTypeName: "MULTIPOLYGON",
                                                            srsID: 4326, z: 0, m: 0))
        #expect(schema.spatialReferenceSystem(id: 4326)?.authorityCode == "EPSG:4326")

        // GDAL's own view of the layer: the same attribute fields in the same order, same extent.
        let info = try runProcess("ogrinfo", ["-ro", "-so", TestData.url("ne_parks.gpkg").path, "parks"])
        let gdalFields = info.stdout.split(separator: "\n").compactMap { line -> String? in
            let parts = line.split(separator: ":", maxSplits: 1)
            guard parts.count == 2, parts[1].contains("(") && !line.hasPrefix("Extent"),
                  ["String", "Integer", "Real", "Integer64"].contains(where: { parts[1].contains($0) }) else { return nil }
            return String(parts[0])
        }
        let ours = parks.fields.map(\.name).filter { $0 != "fid" && $0 != "geom" }
        #expect(ours == gdalFields)
        #expect(info.stdout.contains(String(format: "Extent: (%.6f, %.6f) - (%.6f, %.6f)",
                                            parks.minX ?? 0, parks.minY ?? 0, parks.maxX ?? 0, parks.maxY ?? 0)))
        #expect(parks.field(named: "SCALERANK")?.declaredType == "MEDIUMINT")
        #expect(parks.field(named: "fid")?.isNotNull == true)
    }

    @Test func readsBothNaturalEarthLayers() throws {
        let connection = try Connection(path: TestData.url("naturalearth.gpkg").path, mode: .readOnly)
        let schema = try GeoPackageSchema.read(from: connection)
        #expect(schema.layers.map(\.name) == ["countries", "cities"])
        #expect(schema.layer(named: "cities")?.geometryColumn?.geometryTypeName == "POINT")
        #expect(schema.layer(named: "countries")?.field(named: "name")?.declaredType == "TEXT(80)")
        #expect(schema.relationships.isEmpty)
        #expect(schema.constraints.isEmpty)
    }

    /// related.gpkg and what GDAL reads from it are recorded by
    /// testdata/fixtures/geodatabase/make_related_gpkg.py.
    @Test func readsConstraintsAndRelatedTablesLikeGDAL() throws {
        let connection = try Connection(path: TestData.fixture("geodatabase/related.gpkg").path, mode: .readOnly)
        let schema = try GeoPackageSchema.read(from: connection)
        let gdal = try #require(try JSONSerialization.jsonObject(
            with: Data(contentsOf: TestData.fixture("geodatabase/related_gdal.json"))) as? [String: Any])

        let layers = try #require(gdal["layers"] as? [String: [String: Any]])
        for (name, expected) in layers {
            let layer = try #require(schema.layer(named: name))
            let fields = try #require(expected["fields"] as? [[String]])
            let ours = layer.fields.filter { $0.name != layer.primaryKey && $0.name != layer.geometryColumn?.name }
            #expect(ours.map(\.name) == fields.map { $0[0] })
            #expect(ours.map { $0.dataColumn?.constraintName ?? "" } == fields.map { $0[1] })
            #expect(layer.primaryKey == expected["fid_column"] as? String)
            #expect((layer.geometryColumn?.name ?? "") == expected["geometry_column"] as? String)
        }

        let domains = try #require(gdal["domains"] as? [String: [String: Any]])
        #expect(Set(schema.constraints.keys) == Set(domains.keys))
        let species = try #require(domains["species_codes"]?["values"] as? [String: String])
        guard case .enumeration(let values)? = schema.constraints["species_codes"]?.rule else {
            Issue.record("species_codes is not an enumeration")
            return
        }
        #expect(Dictionary(uniqueKeysWithValues: values.map { ($0.value, $0.description ?? "") }) == species)
        let height = try #require(domains["height_range"])
        #expect(schema.constraints["height_range"]?.rule == .range(
            min: height["min"] as? Double, minInclusive: height["min_inclusive"] as? Bool == true,
            max: height["max"] as? Double, maxInclusive: height["max_inclusive"] as? Bool == true))
        #expect(schema.constraints["tag_pattern"]?.rule == .glob(try #require(domains["tag_pattern"]?["glob"] as? String)))

        let relations = try #require(gdal["relationships"] as? [[String: Any]])
        #expect(schema.relationships.count == relations.count)
        let expected = try #require(relations.first)
        let relation = try #require(schema.relationships.first)
        #expect(relation.originTable == expected["left_table"] as? String)
        #expect(relation.destinationTable == expected["right_table"] as? String)
        #expect([relation.originKey] == expected["left_fields"] as? [String])
        #expect([relation.destinationKey] == expected["right_fields"] as? [String])
        #expect(relation.mappingTable == expected["mapping_table"] as? String)
        #expect(relation.cardinality.rawValue == expected["cardinality"] as? String)
        #expect(relation.storage == .mappingTable(name: "trees_inspections",
                                                  relationName: try #require(expected["related_table_type"] as? String)))
    }

    @Test func refusesAFileThatIsNotAGeoPackage() throws {
        let directory = try TemporaryDirectory()
        let connection = try Connection(path: directory.path("plain.sqlite"))
        try connection.execute("CREATE TABLE t (a)")
        #expect { try GeoPackageSchema.read(from: connection) } throws: { error in
            (error as? GeodatabaseError)?.kind == .notAGeoPackage
                && "\(error)".contains("plain.sqlite") && "\(error)".contains("gpkg_contents")
        }
    }
}

extension SchemaReadingTests {
    @Test func keepsGDALsDomainDescriptionOutOfTheConstraints() throws {
        let connection = try Connection(path: TestData.fixture("geodatabase/related.gpkg").path, mode: .readOnly)
        let schema = try GeoPackageSchema.read(from: connection)
        #expect(schema.constraints["species_codes"]?.description == "tree species")
        #expect(schema.constraints["height_range"]?.description == "height in metres")
    }

    /// A table's presence as SQLite names it: any letter case, tables and views, not indexes.
    @Test func tableExistsMatchesNamesAsSQLiteDoes() throws {
        let db = try Connection(path: ":memory:")
        try db.execute("CREATE TABLE Parks (id INTEGER PRIMARY KEY, name TEXT); CREATE VIEW park_names AS SELECT name FROM Parks; "
                       + "CREATE INDEX parks_name ON Parks (name)")
        #expect(try tableExists("parks", in: db))
        #expect(try tableExists("PARK_NAMES", in: db))
        #expect(try !tableExists("parks_name", in: db))
        #expect(try !tableExists("airports", in: db))
    }
}
