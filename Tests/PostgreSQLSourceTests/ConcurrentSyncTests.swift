import Foundation
import PkgBuildCLI
import Synchronization
import Testing
import TestSupport

/// Sixteen crews syncing overlapping packages at once with one PostGIS source, while the
/// office commits through psql and GDAL: every sync either completes or fails clearly and
/// converges on a re-run; nothing is lost and nothing doubled (judged by psql).
@Suite(.needsPostgreSQL, .serialized) struct ConcurrentSyncTests {
    static let binary = TestData.root.appendingPathComponent(".build/debug/pkgbuild").path
    static let crews = 16
    static let insertsPerCrew = 25

    /// Overlapping areas: each crew's box shifted a little from the last.
    static func area(_ crew: Int) -> String {
        let x = -160.0 + Double(crew) * 0.5, y = 57.0 + Double(crew) * 0.2
        return "\(x),\(y),\(x + 14),\(y + 7)"
    }

    @Test func sixteenCrewsAndTheOfficeLoseNothingAndDoubleNothing() throws {
        let source = try PostGISSource()
        #expect(CLI.run(["source", "enable", source.address]).exitCode == 0)
        let directory = try TemporaryDirectory("pkgbuild-concurrent")
        let packages = try (0..<Self.crews).map { crew in try Self.makePackage(crew, source: source, in: directory) }

        let office = Thread { Self.officeWrites(source) }
        office.start()
        let started = Date()
        let results = Self.syncAll(packages, source: source)
        let completed = results.filter { $0.status == 0 }.count
        print("\(Self.crews) concurrent syncs: \(completed) completed at the first run, all within "
              + String(format: "%.1f s", Date().timeIntervalSince(started)))
        for result in results where result.status != 0 { print("a first run failed (exit \(result.status)): \(result.stderr.prefix(300))") }
        while !office.isFinished { Thread.sleep(forTimeInterval: 0.05) }

        for (crew, result) in results.enumerated() {
            #expect(result.status == 0 || result.stderr.contains("error"), "crew \(crew) failed without saying why: \(result.stderr)")
        }
        // Converge: every package synced again until it completes, then checked by verify.
        for (crew, package) in packages.enumerated() {
            let rerun = try Self.syncUntilCompleted(package, source: source)
            #expect(rerun.status == 0, "crew \(crew): \(rerun.stderr)")
        }
        #expect(try source.psql("SELECT count(*) FROM airports WHERE name LIKE 'crew %'") == "\(Self.crews * Self.insertsPerCrew)")
        #expect(try source.psql("SELECT count(*) FROM (SELECT name FROM airports WHERE name LIKE 'crew %' GROUP BY name HAVING count(*) > 1) d") == "0")
        #expect(try source.psql("SELECT count(*) FROM airports WHERE name LIKE 'office %'") == "20")
        #expect(try source.psql("SELECT count(DISTINCT globalid) = count(*) FROM airports") == "t")
        for package in packages {
            let verify = try runProcess(Self.binary, ["verify", package, "--source", source.address])
            #expect(verify.status == 0, "\(package): \(verify.stdout) \(verify.stderr)")
        }
    }

    /// A crew's package with its day's work: inserts of its own, and an edit of a row every
    /// crew edits (Anchorage's type: conflicts, settled package-wins).
    static func makePackage(_ crew: Int, source: PostGISSource, in directory: TemporaryDirectory) throws -> String {
        let package = directory.path("crew\(crew).pkg")
        let created = CLI.run(["create", "--area=\(area(crew))", "--features", source.address, "--output", package])
        try #require(created.exitCode == 0, "\(created.stderr)")
        // GDAL's SQL: the package's R-tree triggers need its ST_ functions.
        let data = package + "/data.gpkg"
        try ogrSQL(data, """
            INSERT INTO airports (geom, name, type) WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n \
            WHERE i < \(insertsPerCrew - 1)) SELECT (SELECT geom FROM airports WHERE name = 'Anchorage Int''l'), \
            'crew \(crew) strip ' || i, 'small' FROM n
            """)
        try ogrSQL(data, "UPDATE airports SET type = 'crew \(crew)' WHERE name = 'Anchorage Int''l'")
        return package
    }

    static func ogrSQL(_ path: String, _ sql: String) throws {
        let result = try runProcess("ogrinfo", ["-q", path, "-sql", sql])
        try #require(result.status == 0 && !result.stderr.contains("ERROR"), "ogrinfo -sql \(sql): \(result.stderr)")
    }

    /// 16 syncs at once, each a `pkgbuild sync` process started on a thread of its own (more
    /// than the machine has cores: they wait on the server, not on the CPU).
    static func syncAll(_ packages: [String], source: PostGISSource) -> [ProcessResult] {
        let results = Mutex(Array(repeating: ProcessResult(status: -1, stdout: "", stderr: ""), count: packages.count))
        let group = DispatchGroup()
        for (crew, package) in packages.enumerated() {
            group.enter()
            Thread {
                let result = (try? runProcess(binary, ["sync", package, "--source", source.address, "--on-conflict", "package-wins"]))
                    ?? ProcessResult(status: -2, stdout: "", stderr: "error: could not run pkgbuild")
                results.withLock { $0[crew] = result }
                group.leave()
            }.start()
        }
        group.wait()
        return results.withLock { $0 }
    }

    static func syncUntilCompleted(_ package: String, source: PostGISSource) throws -> ProcessResult {
        var result = ProcessResult(status: -1, stdout: "", stderr: "")
        for _ in 0..<5 {
            result = try runProcess(binary, ["sync", package, "--source", source.address, "--on-conflict", "package-wins"])
            if result.status == 0 { break }
        }
        return result
    }

    /// The office meanwhile: psql inserts and updates, and GDAL's SQL, each its own transaction.
    static func officeWrites(_ source: PostGISSource) {
        for index in 0..<20 {
            _ = try? source.psql("INSERT INTO airports (geom, name, type) VALUES (ST_SetSRID(ST_MakePoint(-149.9, 61.2), 4326), 'office \(index)', 'office')")
            _ = try? source.psql("UPDATE airports SET scalerank = \(index) WHERE name = 'Fairbanks Int''l'")
            _ = try? runProcess("ogrinfo", ["-q", "PG:\(source.database.conninfo)", "-sql",
                                            "UPDATE airports SET gps_code = 'G\(index)' WHERE name = 'Kodiak'"])
        }
    }
}
