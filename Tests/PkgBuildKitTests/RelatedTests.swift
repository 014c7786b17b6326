import Foundation
import Geometry
import PkgBuildCLI
import PkgBuildKit
import TestSupport
import Testing

@Suite("related")
struct RelatedTests {
    @Test("Denali's park_visitors row comes back, and Denali from it")
    func bothDirections() throws {
        let demo = try DemoPackage()
        let package = try OfflinePackage(at: demo.packagePath)
        let denali = try #require(try package.features(in: "parks", matching: ["unit_code": "DENA"]).first)

        let visitors = try package.related(to: denali)
        #expect(visitors.count == 1)
        let row = try #require(visitors.first)
        #expect(row.relationship == "parks_visitors")
        #expect(row.cardinality == .oneToOne)
        #expect(row.direction == .forward)
        #expect(row.feature.layer == "park_visitors")
        #expect(row.feature["unit_code"] == "DENA")
        #expect(row.feature["annual_visitors"] == "100,000+")

        let back = try package.related(in: "park_visitors", id: row.feature.id)
        #expect(back.map(\.feature.fid) == [denali.fid])
        #expect(back.first?.direction == .backward)
    }

    @Test("--id takes a globalid in any letter case, with or without braces, or the fid",
          arguments: ["as stored", "lower case", "no braces"])
    func idForms(spelling: String) throws {
        let demo = try DemoPackage()
        let package = try OfflinePackage(at: demo.packagePath)
        let denali = try #require(try package.features(in: "parks", matching: ["unit_code": "DENA"]).first)
        let globalID = try #require(denali.globalID)
        let text = switch spelling {
        case "lower case": globalID.lowercased()
        case "no braces": String(globalID.dropFirst().dropLast())
        default: globalID
        }
        let id = try #require(FeatureID(text))
        #expect(try package.feature(in: "parks", id: id).fid == denali.fid)
        #expect(try package.feature(in: "PARKS", id: .fid(denali.fid)).globalID == globalID)
    }

    @Test("Related Tables Extension links in a GDAL-written GeoPackage, both ways")
    func mappingTable() throws {
        let directory = try TemporaryDirectory()
        let path = try directory.copy(testdata: "fixtures/geodatabase/related.gpkg")
        let package = try OfflinePackage(at: path)
        // GDAL reads the relation trees -> inspections through trees_inspections (related_gdal.json);
        // its links: tree 1 -> inspections 1 and 2, tree 3 -> inspection 3.
        let fromTree = try package.related(in: "trees", id: .fid(1))
        #expect(fromTree.map(\.feature.fid) == [1, 2])
        #expect(fromTree.allSatisfy { $0.relationship == "trees_inspections" && $0.cardinality == .manyToMany })
        #expect(try package.related(in: "inspections", id: .fid(3)).map(\.feature.fid) == [3])
        #expect(try package.related(in: "trees", id: .fid(2)).isEmpty)
    }

    @Test("related through the command line")
    func command() throws {
        let demo = try DemoPackage()
        let package = try OfflinePackage(at: demo.packagePath)
        let denali = try #require(try package.features(in: "parks", matching: ["unit_code": "DENA"]).first)
        let globalID = try #require(denali.globalID)

        let text = CLI.run(["related", demo.packagePath, "--layer", "parks", "--id", globalID.lowercased()])
        #expect(text.exitCode == 0, "\(text.stderr)")
        #expect(text.stdout.contains("parks_visitors") && text.stdout.contains("one-to-one")
                && text.stdout.contains("annual_visitors=100,000+"))

        let json = CLI.run(["related", demo.packagePath, "--layer", "parks", "--id", String(denali.fid), "--json"])
        let items = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
        #expect(items.count == 1)
        #expect(items.first?["relationship"] as? String == "parks_visitors")
        #expect(items.first?["cardinality"] as? String == "one-to-one")
        #expect((items.first?["attributes"] as? [String: Any])?["unit_code"] as? String == "DENA")

        let unknown = CLI.run(["related", demo.packagePath, "--layer", "parks", "--id", "{00000000-0000-4000-8000-000000000000}"])
        #expect(unknown.exitCode == 1 && unknown.stderr.contains("no feature with globalid"))
        let malformed = CLI.run(["related", demo.packagePath, "--layer", "parks", "--id", "denali"])
        #expect(malformed.exitCode == 64 && malformed.stderr.contains("globalid"))
    }
}
