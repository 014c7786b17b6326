import Foundation
import Testing
import TestSupport
@testable import Geometry

@Suite("PROJ coordinate reference systems")
struct PROJCRSTests {
    let context: PROJContext

    init() throws { context = try PROJContext() }

    @Test("EPSG:3857 by code: name, code, WKT1 for GeoPackage, projected, area of use")
    func webMercator() throws {
        let crs = try CoordinateReferenceSystem(epsg: 3857, context: context)
        #expect(crs.epsgCode == 3857)
        #expect(crs.name == "WGS 84 / Pseudo-Mercator")
        #expect(crs.identity == "EPSG:3857")
        #expect(!crs.isGeographic)
        let wkt1 = try crs.wkt()
        #expect(wkt1.hasPrefix("PROJCS[\"WGS 84 / Pseudo-Mercator\""))
        #expect(wkt1.hasSuffix("AUTHORITY[\"EPSG\",\"3857\"]]"))
        #expect(!wkt1.contains("\n"))
        #expect(try crs.wkt(.wkt2).hasPrefix("PROJCRS["))
        let area = try #require(crs.areaOfUse)
        #expect(area == Envelope(minX: -180, minY: -85.06, maxX: 180, maxY: 85.06))
    }

    @Test("EPSG:4326 is geographic, and GDAL's WKT of it is identified as EPSG:4326")
    func wgs84FromWKT() throws {
        let byCode = try CoordinateReferenceSystem("EPSG:4326", context: context)
        #expect(byCode.isGeographic)
        #expect(try byCode.wkt().hasPrefix("GEOGCS[\"WGS 84\""))
        // The layer CRS as GDAL reports it for testdata/naturalearth.gpkg.
        let wkt = try #require(runProcess("ogrinfo", ["-so", "-ro", TestData.url("naturalearth.gpkg").path, "countries"])
            .stdout.components(separatedBy: "Layer SRS WKT:\n").last?.components(separatedBy: "Data axis").first)
        let fromWKT = try CoordinateReferenceSystem(wkt, context: context)
        #expect(fromWKT.epsgCode == 4326)
        #expect(fromWKT.identity == byCode.identity)
        #expect(fromWKT.isGeographic)
    }

    @Test("a PROJ string makes a CRS without an authority, identified by its WKT2")
    func projString() throws {
        let crs = try CoordinateReferenceSystem("+proj=utm +zone=6 +datum=WGS84 +units=m +no_defs", context: context)
        #expect(crs.epsgCode == nil)
        #expect(!crs.isGeographic)
        #expect(crs.identity.hasPrefix("PROJCRS["))
        #expect(crs.areaOfUse == nil)
        // The same projection as EPSG:32606: the cs2cs fixture's Fairbanks point lands there too.
        let fixture = try CS2CSFixture("EPSG4326-EPSG32606.txt")
        let transformer = try Transformer(from: CoordinateReferenceSystem("EPSG:4326", context: context), to: crs, context: context)
        for (input, expected) in fixture.pairs {
            let got = try transformer.transform(input)
            #expect(abs(got.x - expected.x) < 1e-6 && abs(got.y - expected.y) < 1e-6)
        }
        let longlat = try CoordinateReferenceSystem("+proj=longlat +datum=WGS84", context: context)
        #expect(longlat.isGeographic)
    }

    @Test("Alaska Albers' area of use is Alaska")
    func alaskaArea() throws {
        let area = try #require(try CoordinateReferenceSystem(epsg: 3338, context: context).areaOfUse)
        // EPSG's extent for 3338 crosses the antimeridian (the Aleutians): west > east.
        #expect(area.minX > area.maxX)
        #expect(area.minY > 50 && area.minY < 52 && area.maxY > 71 && area.maxY < 72)
    }

    @Test("unknown CRS definitions are errors that name them",
          arguments: ["EPSG:999999", "not a crs at all", "GEOGCS[\"broken\"", "+proj=nonexistent"])
    func unknown(_ definition: String) throws {
        let error = try #require(throws: GeometryError.self) { try CoordinateReferenceSystem(definition, context: context) }
        #expect(error.kind == .unknownCRS)
        #expect(error.message.contains(definition))
    }

    @Test("an operation is not a CRS")
    func operationIsNotCRS() throws {
        let error = try #require(throws: GeometryError.self) {
            try CoordinateReferenceSystem("+proj=pipeline +step +proj=axisswap +order=2,1", context: context)
        }
        #expect(error.kind == .unknownCRS)
        #expect(error.message.contains("not a coordinate reference system"))
    }

    @Test("a missing proj.db is an error that says so and where PROJ looked")
    func missingDatabase() throws {
        let empty = try TemporaryDirectory()
        let blind = try PROJContext(searchPaths: [empty.url.path])
        #expect(blind.databasePath == nil)
        let error = try #require(throws: GeometryError.self) { try CoordinateReferenceSystem("EPSG:4326", context: blind) }
        #expect(error.kind == .unknownCRS)
        #expect(error.message.contains("PROJ database (proj.db) was not found"))
        #expect(error.message.contains(empty.url.path))
        // The default context finds it.
        #expect(context.databasePath?.hasSuffix("proj.db") == true)
    }
}
