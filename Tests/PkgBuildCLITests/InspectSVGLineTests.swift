import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import PkgBuildCLI
import Testing
import TestSupport

/// `inspect --svg` draws line layers as lines: stroked, never filled (a filled line paints the
/// polygon its ends enclose). The SVG is read back by Foundation's XML parser, with fill
/// inherited from the enclosing groups as SVG renderers resolve it.
@Suite struct InspectSVGLineTests {
    /// Each `path` of the document with the fill and stroke it is drawn with, and the id of its group.
    final class PaintReader: NSObject, XMLParserDelegate {
        struct Painted { var group: String?; var fill: String?; var stroke: String? }
        private var stack: [[String: String]] = []
        var paths: [Painted] = []

        func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?,
                    qualifiedName: String?, attributes: [String: String] = [:]) {
            stack.append(attributes)
            func inherited(_ key: String) -> String? { stack.reversed().lazy.compactMap { $0[key] }.first }
            if name == "path" {
                paths.append(Painted(group: stack.dropLast().reversed().lazy.compactMap { $0["id"] }.first,
                                     fill: inherited("fill"), stroke: inherited("stroke")))
            }
        }

        func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
            stack.removeLast()
        }
    }

    @Test func lineLayersAreStrokedNotFilled() throws {
        let directory = try TemporaryDirectory("pkgbuild-svg-lines")
        // A U-shaped trail (its ends enclose a box a fill would paint) and a two-part route.
        let layers = [
            ("trails", #"{"type": "LineString", "coordinates": [[-150, 61], [-150, 63], [-148, 63], [-148, 61]]}"#),
            ("routes", #"{"type": "MultiLineString", "coordinates": [[[-152, 61], [-151, 62]], [[-151, 62.5], [-150.5, 63.5], [-152, 63.8]]]}"#),
        ]
        let source = directory.path("source.gpkg")
        for (index, (layer, geometry)) in layers.enumerated() {
            let input = directory.path("\(layer).geojson")
            try #"{"type": "FeatureCollection", "features": [{"type": "Feature", "properties": {}, "geometry": \#(geometry)}]}"#
                .write(toFile: input, atomically: true, encoding: .utf8)
            let made = try runProcess("ogr2ogr", ["-f", "GPKG"] + (index > 0 ? ["-update"] : []) + [source, input, "-nln", layer])
            #expect(made.status == 0, "\(made.stderr)")
        }
        let parks = try runProcess("ogr2ogr", ["-update", source, TestData.url("demo/alaska_source.gpkg").path, "parks"])
        #expect(parks.status == 0, "\(parks.stderr)")
        let package = directory.path("lines.pkg"), svg = directory.path("lines.svg")
        let created = CLI.run(["create", "--area=-153.5,60.8,-147.5,64.3", "--features", source, "--no-register", "-o", package])
        try #require(created.exitCode == 0, "\(created.stderr)")
        let inspected = CLI.run(["inspect", package, "--svg", svg])
        try #require(inspected.exitCode == 0, "\(inspected.stderr)")

        let parser = try #require(XMLParser(contentsOf: URL(fileURLWithPath: svg)))
        let reader = PaintReader()
        parser.delegate = reader
        #expect(parser.parse(), "the SVG is well-formed XML: \(parser.parserError.map { "\($0)" } ?? "")")
        for layer in ["trails", "routes"] {
            let drawn = reader.paths.filter { $0.group == "layer-\(layer)" }
            #expect(drawn.count == 1, "\(layer): \(drawn)")
            for path in drawn {
                #expect(path.fill == "none", "a line is drawn without fill: \(path)")
                #expect(path.stroke != nil && path.stroke != "none", "a line is stroked: \(path)")
            }
        }
        let polygons = reader.paths.filter { $0.group == "layer-parks" }
        #expect(!polygons.isEmpty && polygons.allSatisfy { $0.fill != nil && $0.fill != "none" }, "polygons stay filled: \(polygons)")
        // The legend marks a line layer with a line, a polygon layer with a filled box.
        let text = try String(contentsOfFile: svg, encoding: .utf8)
        for (entry, mark) in [(">trails: 1 linestring<", "<line "), (">routes: 1 multilinestring<", "<line "), (">parks: ", "<rect ")] {
            let found = try #require(text.range(of: entry), "\(entry) in the legend")
            let swatch = text[..<found.lowerBound].components(separatedBy: "\n").dropLast().last ?? ""
            #expect(swatch.hasPrefix(mark), "legend of \(entry): \(swatch)")
        }
    }
}
