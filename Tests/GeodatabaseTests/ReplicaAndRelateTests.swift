import Foundation
import Geodatabase
import SQLite
import TestSupport
import Testing

@Suite struct ReplicaAndRelateTests {
    func enabledSource(_ directory: TemporaryDirectory) throws -> SourceGeodatabase {
        let path = try directory.copy(testdata: "naturalearth.gpkg")
        let source = SourceGeodatabase(connection: try openForEditing(path))
        try source.enable(.init(useWAL: false))
        return source
    }

    @Test func replicaLifeAndSyncRecords() throws {
        let directory = try TemporaryDirectory()
        let source = try enabledSource(directory)
        let registered = try source.registerReplica(ReplicaRegistration(
            id: "R1", name: "Alps", generation: try source.generation(), areaWKT: "POLYGON ((5 45, 11 45, 11 48, 5 48, 5 45))",
            areaCRS: "EPSG:4326", layers: ["countries", "cities"], optionsJSON: #"{"clip":false}"#))
        #expect(registered.state == .pending && registered.extractionGeneration == 0 && registered.layers == ["countries", "cities"])
        try source.activateReplica(id: "R1")
        #expect(try source.replica(id: "R1")?.state == .active)

        #expect(try !source.isSyncApplied("S1"))
        try source.connection.withTransaction {
            try source.connection.execute("UPDATE cities SET name = 'Bern (BE)' WHERE name = 'Bern'")
            try source.recordSync(replicaID: "R1", syncID: "S1", generation: try source.generation())
        }
        #expect(try source.isSyncApplied("S1"))
        let synced = try #require(try source.replica(id: "R1"))
        #expect(synced.syncGeneration == 1 && synced.lastSyncID == "S1" && synced.lastSyncAt != nil)
        #expect(throws: GeodatabaseError.self) { try source.recordSync(replicaID: "R1", syncID: "S1", generation: 1) }

        let status = try source.status()
        #expect(status.generation == 1)
        #expect(status.tables.map(\.name) == ["countries", "cities"])
        #expect(status.tables.map(\.rowCount) == [177, 243])
        #expect(status.replicas.map(\.id) == ["R1"])

        try source.unregisterReplica(id: "R1")
        #expect(try source.replicas().isEmpty)
        // What a re-attach and the package's next sync need stays: its syncs and its registration.
        #expect(try source.isSyncApplied("S1"))
        let retired = try #require(try source.retiredReplica(id: "R1"))
        #expect(retired.retiredBy == "pkgbuild source unregister" && retired.layers == ["countries", "cities"]
                && retired.areaWKT == "POLYGON ((5 45, 11 45, 11 48, 5 48, 5 45))")
        #expect { try source.unregisterReplica(id: "R1") } throws: { ($0 as? GeodatabaseError)?.kind == .notRegistered }
        #expect { try source.registerReplica(ReplicaRegistration(generation: 0, layers: [], optionsJSON: "[1]")) } throws: {
            ($0 as? GeodatabaseError)?.kind == .invalidArgument
        }
    }

    @Test func aNotEnabledSourceSaysSo() throws {
        let directory = try TemporaryDirectory()
        let source = SourceGeodatabase(connection: try Connection(path: try directory.copy(testdata: "ne_parks.gpkg")))
        #expect { try source.status() } throws: {
            ($0 as? GeodatabaseError)?.kind == .notEnabled && "\($0)".contains("source enable")
        }
    }

    @Test func relateValidatesAndIsReadBack() throws {
        let directory = try TemporaryDirectory()
        let source = try enabledSource(directory)
        let relationship = try Relationship.declare(originTable: "COUNTRIES", originKey: "ISO_A3", destinationTable: "cities",
                                                    destinationKey: "name", cardinality: .oneToMany, in: source.connection)
        #expect(relationship.originTable == "countries" && relationship.originKey == "iso_a3")
        #expect(relationship.name == "countries_cities")
        let before = try dump(source.connection.path)
        try Relationship.declare(originTable: "countries", originKey: "iso_a3", destinationTable: "cities",
                                 destinationKey: "name", in: source.connection)
        #expect(try dump(source.connection.path) == before)
        #expect(try GeoPackageSchema.read(from: source.connection).relationships == [relationship])

        #expect { try Relationship.declare(originTable: "countries", originKey: "nope", destinationTable: "cities",
                                           destinationKey: "name", in: source.connection) } throws: {
            ($0 as? GeodatabaseError)?.kind == .unknownColumn && "\($0)".contains("'nope'")
        }
        #expect { try Relationship.declare(originTable: "rivers", originKey: "id", destinationTable: "cities",
                                           destinationKey: "name", in: source.connection) } throws: {
            ($0 as? GeodatabaseError)?.kind == .unknownTable && "\($0)".contains("'rivers'")
        }
        #expect(Cardinality(rawValue: "many-to-many") == .manyToMany && Cardinality(rawValue: "1:n") == nil)
        try Relationship.remove(named: "countries_cities", in: source.connection)
        #expect(try GeoPackageSchema.read(from: source.connection).relationships.isEmpty)
    }
}
