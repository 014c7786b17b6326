import Foundation
import Geometry
import PkgBuildKit
import TestSupport
import Testing

@Suite("query")
struct QueryTests {
    @Test("features intersecting an area are the ones GDAL's ST_Intersects finds", arguments: [
        "POLYGON ((-151 63, -150 63, -150 63.5, -151 63.5, -151 63))",
        "POLYGON ((-150.2 61.0, -149.8 61.0, -149.8 61.3, -150.2 61.3, -150.2 61.0))",
        "POLYGON ((-153.4 60.9, -147.6 60.9, -147.6 64.2, -153.4 64.2, -153.4 60.9))",
    ])
    func byArea(wkt: String) throws {
        let demo = try DemoPackage()
        let package = try OfflinePackage(at: demo.packagePath)
        let area = try Geometry(wkt: wkt)
        for layer in ["parks", "airports"] {
            let ours = try package.features(in: layer, intersecting: area).map { String($0.fid) }
            let gdal = try demo.ogrValues("SELECT CAST(fid AS TEXT) AS f FROM \(layer) WHERE ST_Intersects(geom, ST_GeomFromText('\(wkt)', 4326)) ORDER BY fid")
            #expect(ours == gdal, "\(layer) in \(wkt)")
        }
    }

    @Test("an area in Alaska Albers selects what the same area in degrees does")
    func areaInAnotherCRS() throws {
        let demo = try DemoPackage()
        let package = try OfflinePackage(at: demo.packagePath)
        let xy = try #require(EditOracles.values["albers_-149.99_61.17"]).split(separator: " ").compactMap { Double($0) }
        try #require(xy.count == 2)
        let square = Envelope(minX: xy[0] - 2000, minY: xy[1] - 2000, maxX: xy[0] + 2000, maxY: xy[1] + 2000).polygon
        let found = try package.features(in: "airports", intersecting: .polygon(square), crs: "EPSG:3338")
        #expect(found.map { $0["iata_code"] } == ["ANC"])
    }

    @Test("features by attribute values")
    func byAttributes() throws {
        let demo = try DemoPackage()
        let package = try OfflinePackage(at: demo.packagePath)
        let gdal = try demo.ogrValues("SELECT CAST(fid AS TEXT) AS f FROM park_visitors WHERE annual_visitors = '100,000+' ORDER BY fid")
        #expect(try package.features(in: "park_visitors", matching: ["annual_visitors": "100,000+"]).map { String($0.fid) } == gdal)
        #expect(try package.features(in: "park_visitors", matching: ["ANNUAL_VISITORS": "100,000+"], limit: 1).count == 1)
        #expect(try package.features(in: "parks", matching: ["note": nil]).count == (try package.features(in: "parks").count))
        let error = #expect(throws: PackageError.self) { try package.features(in: "parks", matching: ["height": 3]) }
        #expect(error?.kind == .unknownField)
    }
}
