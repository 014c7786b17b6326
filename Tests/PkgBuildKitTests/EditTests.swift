import Foundation
import Geodatabase
import Geometry
import PkgBuildCLI
import PkgBuildKit
import TestSupport
import Testing

@Suite("edit")
struct EditTests {
    static let allowedBuckets = ["0-1,000", "1,000-10,000", "10,000-50,000", "50,000-100,000", "100,000+"]

    @Test("setting Denali's visitors bucket is one tracked update of that one column")
    func setVisitors() throws {
        let demo = try DemoPackage()
        let package = try OfflinePackage(at: demo.packagePath)
        let row = try #require(try package.features(in: "park_visitors", matching: ["unit_code": "DENA"]).first)

        let updated = try package.update(in: "park_visitors", id: row.id, set: ["annual_visitors": "10,000-50,000"])
        #expect(updated["annual_visitors"] == "10,000-50,000")
        #expect(updated["survey_year"] == row["survey_year"])

        let changes = try demo.pendingChanges()
        #expect(changes.count == 1)
        #expect(changes.first?.table == "park_visitors")
        #expect(changes.first?.operation == .update)
        #expect(changes.first?.globalID == row.globalID)
        #expect(changes.first?.changedColumns == ["annual_visitors"])
        #expect(try demo.ogrValues("SELECT annual_visitors FROM park_visitors WHERE unit_code = 'DENA'") == ["10,000-50,000"])
    }

    @Test("a bucket outside the enum fails, lists the five allowed values, and changes nothing")
    func bucketOutsideEnum() throws {
        let demo = try DemoPackage()
        let package = try OfflinePackage(at: demo.packagePath)
        let before = try demo.dump()
        let error = #expect(throws: PackageError.self) {
            try package.update(in: "park_visitors", id: .fid(1), set: ["annual_visitors": "10,000+"])
        }
        #expect(error?.kind == .constraintViolation)
        for value in Self.allowedBuckets { #expect(error?.message.contains("'\(value)'") == true, "\(value)") }
        #expect(error?.message.contains("'10,000+'") == true)
        #expect(try demo.dump() == before)
        #expect(try demo.pendingChanges().isEmpty)
    }

    @Test("moving the Anchorage airport moves it for GDAL too, in the R-tree and the change log")
    func moveAirport() throws {
        let demo = try DemoPackage()
        let package = try OfflinePackage(at: demo.packagePath)
        let airport = try #require(try package.features(in: "airports", matching: ["iata_code": "ANC"]).first)
        let moved = try package.move(in: "airports", id: airport.id, to: Coordinate(-149.95, 61.19))
        #expect(moved.geometry == .point(Point(x: -149.95, y: 61.19)))

        #expect(try demo.ogrValues("SELECT ST_X(geom), ST_Y(geom) FROM airports WHERE iata_code = 'ANC'") == ["-149.95", "61.19"])
        // GDAL's R-tree (kept by the package's own triggers) has the new place.
        #expect(try demo.ogrValues("SELECT minx, miny FROM rtree_airports_geom WHERE id = \(airport.fid)")
            .compactMap(Double.init).map { ($0 * 1000).rounded() / 1000 } == [-149.95, 61.19])
        #expect(try package.identify(at: Coordinate(-149.95, 61.19), layers: ["airports"]).first?.feature.fid == airport.fid)
        let changes = try demo.pendingChanges()
        #expect(changes.map(\.table) == ["airports"])
        #expect(changes.first?.changedColumns == ["geom"])
        try expectValidGeoPackage(demo.dataPath)
    }

    @Test("a geometry in another CRS is reprojected into the layer's, as cs2cs does")
    func reprojected() throws {
        let demo = try DemoPackage()
        let package = try OfflinePackage(at: demo.packagePath)
        let albers = try #require(EditOracles.values["albers_-149.99_61.17"]).split(separator: " ").compactMap { Double($0) }
        try #require(albers.count == 2)
        let moved = try package.move(in: "airports", id: .fid(try anchorage(package)), to: Coordinate(albers[0], albers[1]),
                                     crs: "EPSG:3338")
        guard case .point(let point)? = moved.geometry, let c = point.coordinate else {
            Issue.record("not a point")
            return
        }
        #expect(abs(c.x - -149.99) < 1e-8 && abs(c.y - 61.17) < 1e-8)
    }

    @Test("add a feature, then delete it: nothing is left to sync")
    func addThenDelete() throws {
        let demo = try DemoPackage()
        let package = try OfflinePackage(at: demo.packagePath)
        let added = try package.add(to: "airports", values: ["name": "Girdwood", "iata_code": "AQY", "scalerank": 9],
                                    geometry: .point(Point(x: -149.1265, y: 60.9661)))
        let globalID = try #require(added.globalID)
        #expect(try demo.pendingChanges().map(\.operation) == [.insert])
        #expect(try demo.pendingChanges().first?.globalID == globalID)
        #expect(try demo.ogrValues("SELECT name FROM airports WHERE iata_code = 'AQY'") == ["Girdwood"])
        try expectValidGeoPackage(demo.dataPath)

        let result = try package.delete(in: "airports", id: .globalID(globalID.lowercased()))
        #expect(result.deleted.map(\.fid) == [added.fid])
        #expect(try demo.pendingChanges().isEmpty)
    }

    @Test("deleting a park keeps its visitors row and names it; --cascade deletes it too")
    func deleteWithRelated() throws {
        let demo = try DemoPackage()
        let package = try OfflinePackage(at: demo.packagePath)
        let denali = try #require(try package.features(in: "parks", matching: ["unit_code": "DENA"]).first)
        let visitors = try #require(try package.related(to: denali).first?.feature)

        let kept = try package.delete(in: "parks", id: denali.id)
        #expect(kept.deleted.map(\.fid) == [denali.fid])
        #expect(kept.keptRelated.map(\.feature) == [visitors])
        #expect(try package.features(in: "park_visitors", matching: ["unit_code": "DENA"]).count == 1)
        #expect(Set(try demo.pendingChanges().map(\.operation)) == [.delete])

        // Each demo source gets its own globalids: ask this one's.
        let demo2 = try DemoPackage()
        let denali2 = try #require(try OfflinePackage(at: demo2.packagePath).features(in: "parks", matching: ["unit_code": "DENA"]).first)
        let result = CLI.run(["edit", demo2.packagePath, "--layer", "parks", "--id", denali2.globalID ?? "", "--delete", "--cascade"])
        #expect(result.exitCode == 0, "\(result.stderr)")
        let package2 = try OfflinePackage(at: demo2.packagePath)
        #expect(try package2.features(in: "park_visitors", matching: ["unit_code": "DENA"]).isEmpty)
        #expect(try demo2.pendingChanges().map(\.table).sorted() == ["park_visitors", "parks"])
        try expectValidGeoPackage(demo2.dataPath)

        let demo3 = try DemoPackage()
        let warned = CLI.run(["edit", demo3.packagePath, "--layer", "parks", "--id", String(denali.fid), "--delete"])
        #expect(warned.exitCode == 0)
        #expect(warned.stderr.contains("Warning: park_visitors fid \(visitors.fid)") && warned.stderr.contains("parks_visitors")
                && warned.stderr.contains("--cascade"))
    }

    @Test("the parks and visitors workflow through the command line")
    func workflowCommand() throws {
        let demo = try DemoPackage()
        let identify = CLI.run(["identify", demo.packagePath, "--at", "-150.5,63.3", "--layer", "parks", "--json"])
        let hits = try #require(try JSONSerialization.jsonObject(with: Data(identify.stdout.utf8)) as? [[String: Any]])
        let parkID = try #require(hits.first?["globalid"] as? String)

        let related = CLI.run(["related", demo.packagePath, "--layer", "parks", "--id", parkID, "--json"])
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(related.stdout.utf8)) as? [[String: Any]])
        let visitorsID = try #require(rows.first?["globalid"] as? String)

        let bad = CLI.run(["edit", demo.packagePath, "--layer", "park_visitors", "--id", visitorsID, "--set", "annual_visitors=10,000+"])
        #expect(bad.exitCode == 1)
        for value in Self.allowedBuckets { #expect(bad.stderr.contains("'\(value)'")) }

        let good = CLI.run(["edit", demo.packagePath, "--layer", "park_visitors", "--id", visitorsID,
                            "--set", "annual_visitors=10,000-50,000"])
        #expect(good.exitCode == 0, "\(good.stderr)")
        #expect(good.stdout.contains("annual_visitors = 10,000-50,000"))

        let move = CLI.run(["edit", demo.packagePath, "--layer", "airports", "--id", "\(try anchorage(OfflinePackage(at: demo.packagePath)))",
                            "--move", "-149.95,61.19"])
        #expect(move.exitCode == 0, "\(move.stderr)")
        #expect(try demo.pendingChanges().map(\.table).sorted() == ["airports", "park_visitors"])

        let add = CLI.run(["edit", demo.packagePath, "--layer", "airports", "--add", "--set", "name=Girdwood",
                           "--set", "scalerank=9", "--geometry", "POINT (-149.1265 60.9661)", "--json"])
        #expect(add.exitCode == 0, "\(add.stderr)")
        #expect(add.stdout.contains("\"action\": \"added\""))
    }

    func anchorage(_ package: OfflinePackage) throws -> Int64 {
        try #require(try package.features(in: "airports", matching: ["iata_code": "ANC"]).first).fid
    }
}

/// GDAL's GeoPackage validator accepts the file.
func expectValidGeoPackage(_ path: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
    let result = try runProcess("/usr/bin/python3",
                                [GDALValidator.script, path])
    #expect(result.status == 0, "validate_gpkg.py: \(result.stdout) \(result.stderr)", sourceLocation: sourceLocation)
}

@Suite("edit: geometry files and sharing")
struct GeometryFileAndSharingTests {
    @Test("--geometry @file.geojson: a Polygon feature goes into the MULTIPOLYGON layer as GDAL reads it")
    func geoJSONFile() throws {
        let demo = try DemoPackage()
        let file = demo.directory.path("outline.geojson")
        try Data("""
            {"type": "Feature", "properties": {}, "geometry": {"type": "Polygon",
             "coordinates": [[[-151, 63], [-150, 63], [-150, 63.5], [-151, 63.5], [-151, 63]]]}}
            """.utf8).write(to: URL(fileURLWithPath: file))
        let result = CLI.run(["edit", demo.packagePath, "--layer", "parks", "--id", "60", "--geometry", "@" + file])
        #expect(result.exitCode == 0, "\(result.stderr)")
        #expect(try demo.ogrValues("SELECT ST_GeometryType(geom), ST_Area(geom) FROM parks WHERE unit_code = 'DENA'")
            == ["MULTIPOLYGON", "0.5"])
        #expect(try demo.pendingChanges().map(\.changedColumns) == [["geom"]])
        try expectValidGeoPackage(demo.dataPath)

        let missing = CLI.run(["edit", demo.packagePath, "--layer", "parks", "--id", "60", "--geometry", "@/nonexistent.geojson"])
        #expect(missing.exitCode == 64 && missing.stderr.contains("cannot read /nonexistent.geojson"))
    }

    @Test("one package shared by concurrent tasks: reads and edits run one at a time, none lost")
    func concurrentUse() async throws {
        let demo = try DemoPackage()
        let package = try OfflinePackage(at: demo.packagePath)
        let fids = try package.features(in: "park_visitors").map(\.fid)
        try #require(!fids.isEmpty)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for (index, fid) in fids.enumerated() {
                group.addTask {
                    #expect(try package.identify(at: Coordinate(-150.5, 63.3)).first?.feature["unit_code"] == "DENA")
                    try package.update(in: "park_visitors", id: .fid(fid), set: ["survey_year": .integer(Int64(2000 + index))])
                }
            }
            try await group.waitForAll()
        }
        #expect(try package.features(in: "park_visitors").map { $0["survey_year"] } == fids.indices.map { .integer(Int64(2000 + $0)) })
        #expect(try demo.pendingChanges().count == fids.count)
    }
}
