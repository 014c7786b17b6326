import Foundation
import Geodatabase
import PkgBuildCLI
import SQLite
import TestSupport
import Testing

/// The demo workflow's package: a copy of the demo source (sync-enabled, parks -> park_visitors
/// related one-to-one on unit_code by `build-source.sh`), and a package of the demo area
/// (Denali and Anchorage) built from it by `pkgbuild create`, registered there as a replica.
final class DemoPackage {
    static let area = "-153.5,60.8,-147.5,64.3"

    let directory: TemporaryDirectory
    let sourcePath: String
    let packagePath: String
    var dataPath: String { packagePath + "/data.gpkg" }

    init() throws {
        directory = try TemporaryDirectory("pkgbuild-edit")
        sourcePath = try directory.copy(testdata: "demo/alaska_source.gpkg", as: "source.gpkg")
        packagePath = directory.path("alaska.pkg")
        let created = CLI.run(["create", "--features", sourcePath, "--area", Self.area, "-o", packagePath])
        guard created.exitCode == 0 else {
            throw DemoPackageError(message: "create failed (\(created.exitCode)): \(created.stderr)")
        }
    }

    /// The pending changes the package's change tracking recorded.
    func pendingChanges() throws -> [PendingChange] {
        try PackageChangeTracking(connection: try GeoPackage(path: dataPath, readOnly: true).connection).pendingChanges()
    }

    /// Every row of every table of the package, as `sqlite3 .dump` writes it: the "package
    /// unchanged" check, read by SQLite's own shell rather than by our code.
    func dump() throws -> String { try sqliteDump(dataPath) }

    /// A value of the package read by GDAL (`ogrinfo` with its SQLite dialect).
    func ogrValues(_ sql: String, path: String? = nil) throws -> [String] {
        let result = try runProcess("ogrinfo", ["-q", "-ro", path ?? dataPath, "-dialect", "SQLite", "-sql", sql])
        guard result.status == 0 else { throw DemoPackageError(message: "ogrinfo failed: \(result.stderr)") }
        return result.stdout.split(separator: "\n").compactMap { line in
            guard line.hasPrefix("  "), let equals = line.range(of: " = ") else { return nil }
            return String(line[equals.upperBound...])
        }
    }
}

struct DemoPackageError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}

/// The recorded oracle answers of `testdata/fixtures/edit/edit_oracles.txt`.
enum EditOracles {
    static let values: [String: String] = {
        guard let text = try? String(contentsOf: TestData.fixture("edit/edit_oracles.txt"), encoding: .utf8) else { return [:] }
        var values: [String: String] = [:]
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            let parts = line.split(separator: " ", maxSplits: 1)
            values[String(parts[0])] = parts.count > 1 ? String(parts[1]) : ""
        }
        return values
    }()

    static func number(_ key: String) throws -> Double {
        try #require(values[key].flatMap(Double.init), "oracle value \(key) missing from edit_oracles.txt")
    }
}
