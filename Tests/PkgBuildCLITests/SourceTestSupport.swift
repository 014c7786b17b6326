import Foundation
import Geometry
import Testing
import TestSupport

/// Parses a command's `--json` output into Foundation values.
func parseJSONObject(_ text: String) throws -> [String: Any] {
    let object = try JSONSerialization.jsonObject(with: Data(text.utf8))
    return try #require(object as? [String: Any], "not a JSON object: \(text)")
}

/// One value from `sqlite3 FILE SQL`, trimmed.
func sqliteScalar(_ path: String, _ sql: String) throws -> String {
    let result = try runProcess("sqlite3", [path, sql])
    #expect(result.status == 0, "\(result.stderr)")
    return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
}

/// The feature count GDAL reports for a layer (`ogrinfo -so`).
func ogrFeatureCount(_ path: String, layer: String) throws -> Int {
    let result = try runProcess("ogrinfo", ["-ro", "-so", path, layer])
    #expect(result.status == 0, "\(result.stderr)")
    let line = try #require(result.stdout.split(separator: "\n").first { $0.hasPrefix("Feature Count: ") })
    return try #require(Int(line.dropFirst("Feature Count: ".count)))
}
