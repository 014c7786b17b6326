import Foundation
import Testing
import TestSupport

/// Runs GDAL's `ogrinfo` as an oracle and reads its feature dump back as rows of text fields.
enum OGRInfo {
    /// The rows of `ogrinfo -ro -q FILE -sql SQL`, each field name mapped to its printed
    /// value (GDAL prints reals with 15 significant digits, NULL as `(null)`). A
    /// column GDAL takes as the feature id (a table's `fid`, even aliased) comes as `"FID"`.
    static func rows(_ file: String, sql: String, dialect: String? = nil) throws -> [[String: String]] {
        var arguments = ["-ro", "-q", file]
        if let dialect { arguments += ["-dialect", dialect] }
        arguments += ["-sql", sql]
        let result = try runProcess("ogrinfo", arguments)
        guard result.status == 0 else {
            Issue.record("ogrinfo failed (\(result.status)): \(result.stderr)")
            return []
        }
        var rows: [[String: String]] = []
        for line in result.stdout.split(separator: "\n") {
            // "OGRFeature(SELECT):12"
            if line.hasPrefix("OGRFeature("), let colon = line.lastIndex(of: ":") {
                rows.append(["FID": String(line[line.index(after: colon)...])])
                continue
            }
            // "  name (Type) = value"
            guard !rows.isEmpty, line.hasPrefix("  "),
                  let open = line.firstIndex(of: "("), let equals = line.range(of: ") = ") else { continue }
            let name = line[..<open].trimmingCharacters(in: .whitespaces)
            rows[rows.count - 1][name] = String(line[equals.upperBound...])
        }
        return rows
    }
}

/// Doubles as GDAL prints them (15 significant digits) compare to this relative tolerance.
func printedEqual(_ printed: String?, _ value: Double) -> Bool {
    guard let printed, let parsed = Double(printed) else { return false }
    return abs(parsed - value) <= 1e-14 * max(1, abs(value))
}
