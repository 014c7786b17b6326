import Foundation
import Geometry
import Testing
import TestSupport
@testable import Extract

/// The basemap half of `create`: the bounds it writes and the tile source it opens.
@Suite struct BasemapTests {
    init() { registerSourceDrivers() }

    static let raster = TestData.url("ne_raster_z0-5.mbtiles").path

    func request(area: String, tiles: TilesRequest, output: String = "") -> ExtractRequest {
        ExtractRequest(area: area, source: TestData.url("naturalearth.gpkg").path, layers: ["countries"],
                       tiles: tiles, register: false, output: output)
    }

    /// A box across the antimeridian keeps west > east in the MBTiles `bounds`, as `tiles`
    /// writes it, not the whole width of the world its two halves span.
    @Test func antimeridianAreaKeepsItsBounds() throws {
        let tiles = TilesRequest(source: Self.raster, minZoom: 0, maxZoom: 2)
        let prepared = try Extractor.prepare(request(area: "170,-25,-170,70", tiles: tiles))
        let basemap = try #require(prepared.basemap)
        #expect(basemap.areaBounds == Envelope(minX: 170, minY: -25, maxX: -170, maxY: 70))

        let dir = try TemporaryDirectory()
        let output = dir.path("pacific.pkg")
        _ = try Extractor.create(request(area: "170,-25,-170,70", tiles: tiles, output: output))
        let bounds = try runProcess("sqlite3", [output + "/basemap.mbtiles", "SELECT value FROM metadata WHERE name = 'bounds'"])
        #expect(bounds.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "170,-25,-170,70")
    }

    @Test func anAreaOnOneSideKeepsItsEnvelope() throws {
        let tiles = TilesRequest(source: Self.raster, minZoom: 0, maxZoom: 2)
        let prepared = try Extractor.prepare(request(area: "-153.5,60.8,-147.5,64.3", tiles: tiles))
        #expect(prepared.basemap?.areaBounds == Envelope(minX: -153.5, minY: 60.8, maxX: -147.5, maxY: 64.3))
    }

    /// Headers are read as the HTTP client reads them; a malformed one is the tile source's
    /// problem, named with the source (its query string left out), not the area's.
    @Test func headersAreParsedByTheHTTPModule() throws {
        let good = TilesRequest(source: "http://127.0.0.1:9/{z}/{x}/{y}.png?key=s3cret", minZoom: 0, maxZoom: 1,
                                headers: ["X-Api-Key:  abc ", "Referer: https://example.com/a:b"])
        let plan = try #require(try Extractor.prepare(request(area: "0,0,10,10", tiles: good)).basemap)
        _ = try plan.makeSource(isCancelled: { false })

        var bad = good
        bad.headers = ["Authorization Bearer"]
        let badPlan = try #require(try Extractor.prepare(request(area: "0,0,10,10", tiles: bad)).basemap)
        let error = try #require(throws: ExtractError.self) { try badPlan.makeSource(isCancelled: { false }) }
        #expect(error.kind == .source)
        #expect(error.message.contains("'Authorization Bearer' is not 'Name: value'"), "\(error.message)")
        #expect(!error.message.contains("s3cret"), "\(error.message)")
    }
}
