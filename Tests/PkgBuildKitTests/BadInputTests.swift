import Foundation
import Geometry
import PkgBuildCLI
import PkgBuildKit
import TestSupport
import Testing

/// Every refused edit says what was wrong and leaves the package exactly as it was
/// (compared with `sqlite3 .dump`, every table and every row).
@Suite("edit: bad input")
struct BadInputTests {
    /// Arguments after `edit PACKAGE`, the exit code, and words the error must contain.
    static let commandCases: [(arguments: [String], exitCode: Int32, message: String)] = [
        (["--layer", "roads", "--id", "1", "--set", "name=x"], 1, "no layer named 'roads'"),
        (["--layer", "airports", "--id", "99999", "--set", "name=x"], 1, "layer 'airports' has no feature with fid 99999"),
        (["--layer", "airports", "--id", "{0A1B2C3D-0000-4000-8000-000000000000}", "--set", "name=x"], 1,
         "has no feature with globalid {0A1B2C3D-0000-4000-8000-000000000000}"),
        (["--layer", "airports", "--id", "ANC", "--set", "name=x"], 64, "globalid"),
        (["--layer", "airports", "--id", "8", "--set", "elevation=5"], 1, "layer 'airports' has no field 'elevation'"),
        (["--layer", "park_visitors", "--id", "1", "--set", "survey_year=abc"], 1,
         "'survey_year' of layer 'park_visitors' is INTEGER: 'abc' is not an integer"),
        (["--layer", "airports", "--id", "8", "--set", "scalerank=2.5"], 1, "'scalerank' of layer 'airports' is MEDIUMINT"),
        (["--layer", "park_visitors", "--id", "1", "--set", "survey_year=1800"], 1, "1800 is outside the range of 'survey_year'"),
        (["--layer", "park_visitors", "--id", "1", "--null", "annual_visitors"], 1, "'annual_visitors' of layer 'park_visitors' is NOT NULL"),
        (["--layer", "park_visitors", "--id", "1", "--set", "annual_visitors=10,000+"], 1, "allowed: '"),
        (["--layer", "airports", "--id", "8", "--set", "fid=3"], 1, "'fid' is the key of layer 'airports'"),
        (["--layer", "airports", "--id", "8", "--set", "globalid={0A1B2C3D-0000-4000-8000-000000000000}"], 1, "cannot be set"),
        (["--layer", "parks", "--id", "60", "--geometry", "POINT (-150 63)"], 1,
         "layer 'parks' holds MULTIPOLYGON geometries; a POINT cannot go in it"),
        (["--layer", "airports", "--id", "8", "--geometry", "POLYGON ((-150 61, -149 61, -149 62, -150 61))"], 1,
         "layer 'airports' holds POINT geometries; a POLYGON cannot go in it"),
        (["--layer", "parks", "--id", "60", "--geometry", "POLYGON ((-150 63, -149 64, -149 63, -150 64, -150 63))"], 1,
         "the geometry for layer 'parks' is invalid: Self-intersection"),
        (["--layer", "airports", "--id", "8", "--geometry", "POINT Z (-149.9 61.2 30)"], 1, "layer 'airports' takes no Z values"),
        (["--layer", "airports", "--id", "8", "--move", "200,63"], 1, "outside the area of use of the input CRS EPSG:4326"),
        (["--layer", "airports", "--id", "8", "--move", "-5000000,0", "--input-crs", "EPSG:3338"], 1,
         "outside the area of use of the input CRS EPSG:3338"),
        (["--layer", "airports", "--id", "8", "--move", "-149.9,61.2", "--input-crs", "EPSG:999999"], 1, "EPSG:999999"),
        (["--layer", "parks", "--id", "60", "--move", "-150,63"], 1, "a move places a point; layer 'parks' fid 60 is a MULTIPOLYGON"),
        (["--layer", "airports", "--id", "8", "--geometry", "POINT (-149.9"], 64, "--geometry"),
        (["--layer", "park_visitors", "--add", "--set", "unit_code=XXXX"], 1,
         "a new row of layer 'park_visitors' needs a value for annual_visitors"),
        (["--layer", "park_visitors", "--id", "1"], 64, "nothing to do"),
        (["--layer", "park_visitors", "--id", "1", "--cascade", "--set", "survey_year=2020"], 64, "--cascade goes with --delete"),
    ]

    @Test("each bad edit through the command line fails clearly and changes nothing")
    func command() throws {
        let demo = try DemoPackage()
        // The fids the cases use: Anchorage's airport and Denali, as this package numbers them.
        let package = try OfflinePackage(at: demo.packagePath, readOnly: true)
        #expect(try package.feature(in: "airports", id: .fid(8))["iata_code"] == "ANC")
        #expect(try package.feature(in: "parks", id: .fid(60))["unit_code"] == "DENA")
        #expect(try package.feature(in: "park_visitors", id: .fid(1))["unit_code"] == "DENA")
        let before = try demo.dump()
        for (arguments, exitCode, message) in Self.commandCases {
            let result = CLI.run(["edit", demo.packagePath] + arguments)
            #expect(result.exitCode == exitCode, "\(arguments): \(result.stderr)")
            #expect(result.stderr.contains(message), "\(arguments): \(result.stderr)")
            #expect(result.stdout.isEmpty, "\(arguments)")
        }
        #expect(try demo.dump() == before)
        #expect(try demo.pendingChanges().isEmpty)
    }

    @Test("the same refusals through the Swift API, as typed errors")
    func api() throws {
        let demo = try DemoPackage()
        let package = try OfflinePackage(at: demo.packagePath)
        let before = try demo.dump()
        let bowTie = try Geometry(wkt: "POLYGON ((-150 63, -149 64, -149 63, -150 64, -150 63))")
        let cases: [(PackageError.Kind, () throws(PackageError) -> Void)] = [
            (.unknownLayer, { () throws(PackageError) in try package.update(in: "roads", id: .fid(1), set: ["name": "x"]) }),
            (.unknownFeature, { () throws(PackageError) in try package.update(in: "airports", id: .fid(99999), set: ["name": "x"]) }),
            (.unknownField, { () throws(PackageError) in try package.update(in: "airports", id: .fid(8), set: ["elevation": 5]) }),
            (.wrongType, { () throws(PackageError) in try package.update(in: "park_visitors", id: .fid(1), set: ["survey_year": "2020"]) }),
            (.wrongType, { () throws(PackageError) in try package.update(in: "airports", id: .fid(8), set: ["name": 42]) }),
            (.constraintViolation, { () throws(PackageError) in try package.update(in: "park_visitors", id: .fid(1), set: ["annual_visitors": "10,000+"]) }),
            (.readOnlyField, { () throws(PackageError) in try package.update(in: "airports", id: .fid(8), set: ["geom": nil]) }),
            (.wrongGeometryType, { () throws(PackageError) in
                try package.replaceGeometry(in: "parks", id: .fid(60), with: .point(Point(x: -150, y: 63))) }),
            (.invalidGeometry, { () throws(PackageError) in
                try package.replaceGeometry(in: "parks", id: .fid(60), with: bowTie) }),
            (.outsideAreaOfUse, { () throws(PackageError) in try package.move(in: "airports", id: .fid(8), to: Coordinate(200, 63)) }),
            (.outsideAreaOfUse, { () throws(PackageError) in
                try package.move(in: "airports", id: .fid(8), to: Coordinate(-5_000_000, 0), crs: "EPSG:3338") }),
            (.unknownCRS, { () throws(PackageError) in try package.move(in: "airports", id: .fid(8), to: Coordinate(0, 0), crs: "EPSG:999999") }),
            (.invalidArgument, { () throws(PackageError) in try package.move(in: "parks", id: .fid(60), to: Coordinate(-150, 63)) }),
        ]
        for (index, (kind, body)) in cases.enumerated() {
            do {
                try body()
                Issue.record("case \(index) did not fail")
            } catch {
                #expect(error.kind == kind, "case \(index): \(error.message)")
                #expect(!error.message.isEmpty)
            }
        }
        #expect(try demo.dump() == before)
    }

    @Test("an enum's allowed values are listed in the order the source wrote them")
    func enumValuesInTheSourcesOrder() throws {
        let demo = try DemoPackage()
        // The source's own order, read by sqlite3: the rowid order of the constraint's rows.
        let listed = try runProcess("sqlite3", [demo.sourcePath, """
            SELECT value FROM gpkg_data_column_constraints WHERE constraint_name = 'visitor_bucket' ORDER BY rowid
            """])
        let sourceOrder = listed.stdout.split(separator: "\n").map(String.init)
        #expect(sourceOrder == ["0-1,000", "1,000-10,000", "10,000-50,000", "50,000-100,000", "100,000+"])

        let result = CLI.run(["edit", demo.packagePath, "--layer", "park_visitors", "--id", "1",
                              "--set", "annual_visitors=10,000+"])
        #expect(result.exitCode == 1)
        let allowed = sourceOrder.map { "'\($0)'" }.joined(separator: ", ")
        #expect(result.stderr.hasSuffix("allowed: \(allowed)\n"), "\(result.stderr)")
        // The package keeps them in that order too, for every other client that lists them.
        let copied = try runProcess("sqlite3", [demo.dataPath, """
            SELECT value FROM gpkg_data_column_constraints WHERE constraint_name = 'visitor_bucket' ORDER BY rowid
            """])
        #expect(copied.stdout.split(separator: "\n").map(String.init) == sourceOrder)
    }

    @Test("opening something that is not a package")
    func notAPackage() throws {
        let directory = try TemporaryDirectory()
        #expect(throws: PackageError(.notAPackage, "package \(directory.path("missing.pkg")) does not exist")) {
            try OfflinePackage(at: directory.path("missing.pkg"))
        }
        let error = #expect(throws: PackageError.self) { try OfflinePackage(at: directory.url.path) }
        #expect(error?.kind == .notAPackage && error?.message.contains("no data.gpkg") == true)
        let result = CLI.run(["identify", directory.path("missing.pkg"), "--at", "0,0"])
        #expect(result.exitCode == 1 && result.stderr.contains("missing.pkg does not exist"))
    }
}
