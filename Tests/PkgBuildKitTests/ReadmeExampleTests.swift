import Foundation
import GeoPackageSource
import Geometry
import PkgBuildKit
import TestSupport
import Testing

// The README's Swift example, verbatim between the markers, so that it compiles and runs.
// README example begins
/// Tap Denali, fix its visitors bucket, move the Anchorage airport, and sync both edits home.
func updateDenaliAndMoveAirport(packagePath: String) throws(PackageError) -> SyncReport {
    let package = try OfflinePackage(at: packagePath)

    // Tap a park: the features within 5 screen pixels at zoom 12, nearest first.
    let hits = try package.identify(at: Coordinate(-150.5, 63.3), tolerance: .pixels(5, zoom: 12))
    guard let park = hits.first(where: { $0.feature.layer == "parks" })?.feature else {
        throw PackageError(.unknownFeature, "no park there")
    }

    // Its visitors record, through the parks -> park_visitors relationship.
    let related = try package.related(to: park)
    guard let visitors = related.first(where: { $0.feature.layer == "park_visitors" })?.feature else {
        throw PackageError(.unknownFeature, "\(park["unit_name"] ?? "the park") has no visitors record")
    }

    // A value outside the column's domain is refused, naming the allowed ones.
    do {
        try package.update(in: visitors.layer, id: visitors.id, set: ["annual_visitors": "10,000+"])
    } catch where error.kind == .constraintViolation {
        print(error.message)  // '10,000+' is not an allowed value of 'annual_visitors' ...; allowed: '0-1,000', ...
    }
    try package.update(in: visitors.layer, id: visitors.id, set: ["annual_visitors": "10,000-50,000"])

    // Tap the airport and drag it: the point is given in longitude and latitude and stored in
    // the layer's CRS.
    let taps = try package.identify(at: Coordinate(-149.982, 61.173), tolerance: .meters(50), layers: ["airports"])
    if let airport = taps.first?.feature {
        try package.move(in: airport.layer, id: airport.id, to: Coordinate(-149.95, 61.19))
    }

    // Both edits go to the source in one atomic sync; conflicts would be in the report. The
    // app registers the source drivers it links, once (here the GeoPackage one).
    SourceRegistry.register(GeoPackageSourceDriver())
    return try package.sync()
}
// README example ends

@Suite("README example")
struct ReadmeExampleTests {
    @Test("the README's Swift example runs on the demo package and both edits reach the source")
    func example() throws {
        let demo = try DemoPackage()
        let report = try updateDenaliAndMoveAirport(packagePath: demo.packagePath)
        #expect(report.status == .completed)
        #expect(report.uploaded.updated == 2 && report.uploaded.total == 2)
        #expect(try demo.ogrValues("SELECT annual_visitors FROM park_visitors WHERE unit_code = 'DENA'", path: demo.sourcePath)
            == ["10,000-50,000"])
        #expect(try demo.ogrValues("SELECT ST_X(geom), ST_Y(geom) FROM airports WHERE iata_code = 'ANC'", path: demo.sourcePath)
            == ["-149.95", "61.19"])
    }

    @Test("the README shows the example exactly as it is compiled here")
    func readmeMatches() throws {
        let source = try String(contentsOf: URL(fileURLWithPath: #filePath), encoding: .utf8)
        let readme = try String(contentsOf: TestData.root.appendingPathComponent("README.md"), encoding: .utf8)
        let begin = try #require(source.range(of: "// README example begins\n"))
        let end = try #require(source.range(of: "// README example ends"))
        let example = String(source[begin.upperBound..<end.lowerBound])
        #expect(readme.contains("```swift\nimport GeoPackageSource\nimport Geometry\nimport PkgBuildKit\n\n" + example + "```"))
    }
}
