import Foundation
import Geometry
import Sync

/// `pkgbuild verify`: the package compared with its source row by row.
struct VerifyCommand: Command {
    static let configuration = CommandConfiguration(
        name: "verify",
        abstract: "Compare a package with its source row by row; exit 3 when they diverge.",
        discussion: """
            The package should hold the source's rows that meet its area and each layer's filter, \
            or are related to such a row, with the source's values: text byte for byte, \
            geometries by type, dimensions and vertex sequence (only the blob's encoding may \
            differ); clipped layers against the source's geometry clipped to the area; \
            reprojected layers against the source's geometry transformed into the package's CRS, \
            each x, y and z within \(VerifySession.tolerance) in the units of that CRS. Each \
            difference is pending (a local edit in the package's change log), behind (a source \
            change after the package's last sync, made by another writer), or divergent (no \
            recorded change explains it). Exits 0 when nothing is divergent, 3 when something \
            is. Opens both files read-only and changes nothing.
            """,
        arguments: [
            .package,
            .option("source", valueName: "SRC.gpkg", help: "The source GeoPackage. (default: the one the package names)"),
            .json("differences"),
        ])

    let package: String
    let source: String?
    let json: Bool

    init(_ arguments: ParsedArguments) throws {
        package = try arguments.required("package", as: String.self)
        source = try arguments.value("source", as: String.self)
        json = arguments.flag("json")
    }

    func run(_ context: CommandContext) throws {
        let report = try VerifySession(package: URL(fileURLWithPath: package), source: source).run()
        context.write(json ? Self.json(report).prettyPrinted + "\n" : Self.text(report))
        if report.isDivergent { throw ExitCode.divergent }
    }

    static func json(_ report: VerifyReport) -> JSONValue {
        func entries(_ status: VerifyDifference.Status) -> JSONValue {
            .array(report.differences(status).map { d in
                .object(["table": .string(d.table), "globalid": .string(d.globalID),
                         "columns": .array(d.columns.map { .string($0) }), "reason": .string(d.reason)])
            })
        }
        return .object([
            "package": .string(report.package), "source": .string(report.source),
            "tolerance": .number(report.tolerance),
            "pending": entries(.pending), "behind": entries(.behind), "divergent": entries(.divergent),
            "summary": .object(["pending": .int(report.differences(.pending).count),
                                "behind": .int(report.differences(.behind).count),
                                "divergent": .int(report.differences(.divergent).count)]),
        ])
    }

    static func text(_ report: VerifyReport) -> String {
        var out = "Package: \(report.package)\nSource:  \(report.source)\n"
        out += "Reprojected layers compared within \(report.tolerance) per ordinate, in the units of the package's CRS.\n\n"
        if !report.differences.isEmpty {
            var table = TextTable(columns: [.init("STATUS"), .init("TABLE"), .init("GLOBALID"), .init("COLUMNS"), .init("REASON")])
            for d in report.differences {
                table.append([d.status.rawValue, d.table, d.globalID, d.columns.joined(separator: ", "), d.reason])
            }
            out += table.rendered + "\n"
        }
        out += "\(report.differences(.pending).count) pending, \(report.differences(.behind).count) behind, "
            + "\(report.differences(.divergent).count) divergent\n"
        return out
    }
}
