import Foundation
import Geometry
import PkgBuildCLI
import PkgBuildKit
import TestSupport
import Testing

/// The two workflows end to end, through the Swift API and through the command line: the
/// source is read back by SQLite's shell and GDAL, not by our code.
@Suite("edit and sync")
struct SyncWorkflowTests {
    /// The data tables of the source (and their R-tree), dumped by `sqlite3` one statement a line.
    static func sourceRows(_ demo: DemoPackage) throws -> Set<String> {
        var lines = Set<String>()
        for table in ["parks", "airports", "park_visitors", "rtree_parks_geom", "rtree_airports_geom"] {
            let result = try runProcess("sqlite3", [demo.sourcePath, ".dump \(table)"])
            try #require(result.status == 0, "\(result.stderr)")
            lines.formUnion(result.stdout.split(separator: "\n").map(String.init).filter { $0.hasPrefix("INSERT INTO") })
        }
        return lines
    }

    @Test("Swift API: tap Denali, change its visitors bucket, sync: exactly that change reaches the source")
    func visitorsThroughAPI() throws {
        let demo = try DemoPackage()
        let before = try Self.sourceRows(demo)
        let package = try OfflinePackage(at: demo.packagePath)

        let park = try #require(try package.identify(at: Coordinate(-150.5, 63.3), layers: ["parks"]).first?.feature)
        #expect(park["unit_code"] == "DENA")
        let visitors = try #require(try package.related(to: park).first?.feature)
        #expect(throws: PackageError.self) {
            try package.update(in: visitors.layer, id: visitors.id, set: ["annual_visitors": "10,000+"])
        }
        try package.update(in: visitors.layer, id: visitors.id, set: ["annual_visitors": "10,000-50,000"])
        let report = try package.sync()
        #expect(report.status == .completed)
        #expect(report.uploaded.updated == 1 && report.uploaded.total == 1)

        try expectOnlyVisitorsChanged(demo, before: before)
        #expect(try package.features(in: "park_visitors", matching: ["unit_code": "DENA"]).first?["annual_visitors"] == "10,000-50,000")
        #expect(try demo.pendingChanges().isEmpty)
    }

    @Test("command line: identify, related, edit --set, sync: exactly that change reaches the source")
    func visitorsThroughCommands() throws {
        let demo = try DemoPackage()
        let before = try Self.sourceRows(demo)
        let identify = CLI.run(["identify", demo.packagePath, "--at", "-150.5,63.3", "--layer", "parks", "--json"])
        let hits = try #require(try JSONSerialization.jsonObject(with: Data(identify.stdout.utf8)) as? [[String: Any]])
        let parkID = try #require(hits.first?["globalid"] as? String)
        let related = CLI.run(["related", demo.packagePath, "--layer", "parks", "--id", parkID, "--json"])
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(related.stdout.utf8)) as? [[String: Any]])
        let visitorsID = try #require(rows.first?["globalid"] as? String)
        let edit = CLI.run(["edit", demo.packagePath, "--layer", "park_visitors", "--id", visitorsID.lowercased(),
                            "--set", "annual_visitors=10,000-50,000"])
        #expect(edit.exitCode == 0, "\(edit.stderr)")
        let sync = CLI.run(["sync", demo.packagePath])
        #expect(sync.exitCode == 0, "\(sync.stdout) \(sync.stderr)")
        try expectOnlyVisitorsChanged(demo, before: before)
    }

    @Test("Swift API: move the Anchorage airport and sync: GDAL reads the new place in the source")
    func moveThroughAPI() throws {
        let demo = try DemoPackage()
        let before = try Self.sourceRows(demo)
        let package = try OfflinePackage(at: demo.packagePath)
        let hit = try #require(try package.identify(at: Coordinate(-149.982, 61.173), tolerance: .pixels(5, zoom: 12)).first)
        #expect(hit.feature["iata_code"] == "ANC")
        try package.move(in: hit.feature.layer, id: hit.feature.id, to: Coordinate(-149.95, 61.19))
        let report = try package.sync()
        #expect(report.uploaded.updated == 1 && report.uploaded.total == 1)
        try expectAirportMoved(demo, before: before, to: (-149.95, 61.19))
    }

    @Test("command line: a package reprojected to Alaska Albers takes the move in its CRS; sync brings it to the source's")
    func moveReprojectedThroughCommands() throws {
        let demo = try DemoPackage()
        let before = try Self.sourceRows(demo)
        let albers = demo.directory.path("albers.pkg")
        let created = CLI.run(["create", "--features", demo.sourcePath, "--area", DemoPackage.area, "--crs", "EPSG:3338", "-o", albers])
        try #require(created.exitCode == 0, "\(created.stderr)")
        let airport = try #require(try OfflinePackage(at: albers).features(in: "airports", matching: ["iata_code": "ANC"]).first)
        guard case .point(let point)? = airport.geometry, let stored = point.coordinate else {
            Issue.record("no point")
            return
        }
        #expect(abs(stored.x) > 1000, "the layer is in metres")  // Albers, not degrees

        let edit = CLI.run(["edit", albers, "--layer", "airports", "--id", airport.globalID ?? "", "--move", "-149.95,61.19"])
        #expect(edit.exitCode == 0, "\(edit.stderr)")
        // Stored in the layer's CRS where cs2cs puts the point.
        let expected = try #require(EditOracles.values["albers_-149.95_61.19"]).split(separator: " ").compactMap { Double($0) }
        let moved = try OfflinePackage(at: albers).feature(in: "airports", id: airport.id)
        guard case .point(let movedPoint)? = moved.geometry, let c = movedPoint.coordinate, expected.count == 2 else {
            Issue.record("no point")
            return
        }
        #expect(abs(c.x - expected[0]) < 1e-5 && abs(c.y - expected[1]) < 1e-5, "\(c) vs cs2cs \(expected)")

        let sync = CLI.run(["sync", albers])
        #expect(sync.exitCode == 0, "\(sync.stdout) \(sync.stderr)")
        try expectAirportMoved(demo, before: before, to: (-149.95, 61.19), tolerance: 1e-7)
    }

    /// The source differs from `before` in the DENA visitors row's bucket and nothing else.
    func expectOnlyVisitorsChanged(_ demo: DemoPackage, before: Set<String>,
                                   sourceLocation: SourceLocation = #_sourceLocation) throws {
        let after = try Self.sourceRows(demo)
        let removed = before.subtracting(after), added = after.subtracting(before)
        #expect(removed.count == 1 && added.count == 1, "removed \(removed), added \(added)", sourceLocation: sourceLocation)
        let old = try #require(removed.first), new = try #require(added.first)
        #expect(old.contains("'DENA'") && old.contains("'100,000+'"), sourceLocation: sourceLocation)
        #expect(new == old.replacingOccurrences(of: "'100,000+'", with: "'10,000-50,000'"), sourceLocation: sourceLocation)
        #expect(try demo.ogrValues("SELECT annual_visitors FROM park_visitors WHERE unit_code = 'DENA'", path: demo.sourcePath)
            == ["10,000-50,000"], sourceLocation: sourceLocation)
    }

    /// GDAL reads the ANC airport at `to` in the source (EPSG:4326), and only the airport's row
    /// and its R-tree entry changed.
    func expectAirportMoved(_ demo: DemoPackage, before: Set<String>, to: (x: Double, y: Double), tolerance: Double = 0,
                            sourceLocation: SourceLocation = #_sourceLocation) throws {
        let xy = try demo.ogrValues("SELECT ST_X(geom), ST_Y(geom) FROM airports WHERE iata_code = 'ANC'", path: demo.sourcePath)
            .compactMap(Double.init)
        try #require(xy.count == 2, sourceLocation: sourceLocation)
        #expect(abs(xy[0] - to.x) <= tolerance + 1e-12 && abs(xy[1] - to.y) <= tolerance + 1e-12, "\(xy)", sourceLocation: sourceLocation)
        let after = try Self.sourceRows(demo)
        let changed = before.subtracting(after).union(after.subtracting(before))
        #expect(changed.count == 4, "\(changed)", sourceLocation: sourceLocation)  // the row and its R-tree entry, old and new
        #expect(changed.allSatisfy { $0.hasPrefix("INSERT INTO airports") || $0.hasPrefix("INSERT INTO rtree_airports_geom") },
                sourceLocation: sourceLocation)
        try expectValidGeoPackage(demo.sourcePath, sourceLocation: sourceLocation)
    }
}
