import Foundation
import Geometry
import PkgBuildCLI
import PkgBuildKit
import TestSupport
import Testing

@Suite("identify")
struct IdentifyTests {
    @Test("a point inside Denali identifies the Denali unit, as GDAL's spatial SQL finds it")
    func insideDenali() throws {
        let demo = try DemoPackage()
        let package = try OfflinePackage(at: demo.packagePath)
        let hits = try package.identify(at: Coordinate(-150.5, 63.3))
        let expected = try #require(EditOracles.values["park_at_-150.5_63.3"])
        #expect(hits.map { $0.feature["unit_code"]?.stringValue ?? "" } == expected.split(separator: ",").map(String.init))
        let denali = try #require(hits.first)
        #expect(denali.feature.layer == "parks")
        #expect(denali.distance == 0)
        #expect(denali.feature.globalID != nil)
        #expect(denali.feature.geometry?.type == .multiPolygon)
    }

    @Test("distances are geodesic metres at Alaska's latitude, equal to geod's to the millimetre")
    func geodesicDistance() throws {
        let demo = try DemoPackage()
        let package = try OfflinePackage(at: demo.packagePath)
        for (x, y) in [(-149.99, 61.17), (-149.98, 61.18)] {
            let expected = try EditOracles.number("geodesic_\(x)_\(y)_to_anc")
            let hits = try package.identify(at: Coordinate(x, y), tolerance: .meters(1000), layers: ["airports"])
            let airport = try #require(hits.first)
            #expect(airport.feature["iata_code"] == "ANC")
            #expect(abs(airport.distance - expected) < 0.001, "\(airport.distance) vs geod \(expected)")
            // Just inside and just outside the tolerance.
            #expect(try package.identify(at: Coordinate(x, y), tolerance: .meters(expected + 0.01), layers: ["airports"]).count == 1)
            #expect(try package.identify(at: Coordinate(x, y), tolerance: .meters(expected - 0.01), layers: ["airports"]).isEmpty)
        }
        // The default tolerance is 10 m: nothing at 550 m.
        #expect(try package.identify(at: Coordinate(-149.99, 61.17)).isEmpty)
    }

    @Test("the same place given in Alaska Albers finds the same features at the same distance")
    func inputCRS() throws {
        let demo = try DemoPackage()
        let package = try OfflinePackage(at: demo.packagePath)
        // (-149.99, 61.17) in EPSG:3338, from cs2cs.
        let numbers = try #require(EditOracles.values["albers_-149.99_61.17"]).split(separator: " ").compactMap { Double($0) }
        try #require(numbers.count == 2)
        let inAlbers = try package.identify(at: Coordinate(numbers[0], numbers[1]), crs: "EPSG:3338",
                                            tolerance: .meters(1000), layers: ["airports"])
        let inDegrees = try package.identify(at: Coordinate(-149.99, 61.17), tolerance: .meters(1000), layers: ["airports"])
        #expect(inAlbers.map(\.feature.fid) == inDegrees.map(\.feature.fid))
        #expect(abs((inAlbers.first?.distance ?? 0) - (inDegrees.first?.distance ?? 1)) < 0.01)
    }

    @Test("pixel tolerances follow the published ground resolution of Web Mercator tiles",
          arguments: [(12, 0.0, 38.2185), (12, 60.0, 19.1093), (10, 61.17, 73.72)])
    func pixels(zoom: Int, latitude: Double, metersPerPixel: Double) throws {
        // Bing Maps Tile System: 38.2185 m/px at level 12 on the equator, times cos(latitude).
        let tolerance = try #require(Tolerance("5px@z\(zoom)"))
        #expect(abs(tolerance.meters(atLatitude: latitude) - 5 * metersPerPixel) < 5 * 0.01)
    }

    @Test("tolerance text", arguments: [
        ("25m", Tolerance.meters(25)), ("25 m", .meters(25)), ("0.5km", .meters(500)), ("30", .meters(30)),
        ("5px@z12", .pixels(5, zoom: 12)),
    ])
    func toleranceText(text: String, expected: Tolerance) {
        #expect(Tolerance(text) == expected)
    }

    @Test("bad tolerances are refused", arguments: ["-5m", "abc", "5px@z40", "px@z3", "nanm"])
    func badTolerance(text: String) {
        #expect(Tolerance(text) == nil)
    }

    @Test("a point outside the input CRS's area of use is refused, naming the CRS")
    func outsideAreaOfUse() throws {
        let demo = try DemoPackage()
        let package = try OfflinePackage(at: demo.packagePath)
        let error = #expect(throws: PackageError.self) { try package.identify(at: Coordinate(200, 63)) }
        #expect(error?.kind == .outsideAreaOfUse)
        #expect(error?.message.contains("EPSG:4326") == true)
    }

    @Test("identify through the command line: text and JSON")
    func command() throws {
        let demo = try DemoPackage()
        let text = CLI.run(["identify", demo.packagePath, "--at", "-150.5,63.3"])
        #expect(text.exitCode == 0, "\(text.stderr)")
        #expect(text.stdout.contains("parks") && text.stdout.contains("unit_code=DENA"))

        let json = CLI.run(["identify", demo.packagePath, "--at", "-149.99,61.17", "--tolerance", "1km", "--json"])
        #expect(json.exitCode == 0, "\(json.stderr)")
        let items = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
        let first = try #require(items.first)
        #expect(first["layer"] as? String == "airports")
        #expect(abs((first["distance_m"] as? Double ?? 0) - (try EditOracles.number("geodesic_-149.99_61.17_to_anc"))) < 0.001)

        let none = CLI.run(["identify", demo.packagePath, "--at", "-149.99,61.17", "--tolerance", "5px@z12"])
        #expect(none.exitCode == 0 && none.stdout.isEmpty)

        let bad = CLI.run(["identify", demo.packagePath, "--at", "-150.5"])
        #expect(bad.exitCode == 64 && bad.stderr.contains("--at"))
        let unknown = CLI.run(["identify", demo.packagePath, "--at", "-150.5,63.3", "--layer", "roads"])
        #expect(unknown.exitCode == 1 && unknown.stderr.contains("no layer named 'roads'"))
    }
}
