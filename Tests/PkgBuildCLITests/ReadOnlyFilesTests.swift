import Foundation
import PkgBuildCLI
import Testing
import TestSupport

/// Dry runs and the commands that only read work on files the user may only read. The tests run
/// as root, where permission bits stop no write, so the binary runs as `nobody` (setpriv) on
/// files and directories made read-only with chmod a-w.
@Suite(.enabled(if: getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv")))
struct ReadOnlyFilesTests {
    static let binary = TestData.root.appendingPathComponent(".build/debug/pkgbuild").path
    static let area = "--area=-153.5,60.8,-147.5,64.3"

    func asNobody(_ arguments: [String]) throws -> ProcessResult {
        try runProcess("/usr/bin/setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups", Self.binary] + arguments)
    }

    func sqlite(_ path: String, _ sql: String) throws -> String {
        let r = try runProcess("sqlite3", [path, sql])
        #expect(r.status == 0, "\(r.stderr)")
        return r.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Each database's `.dump` and each directory's names: what "nothing changed" compares.
    func snapshot(_ paths: [String]) throws -> [String] {
        try paths.map { path in
            var isDirectory: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
            if isDirectory.boolValue { return try FileManager.default.contentsOfDirectory(atPath: path).sorted().joined(separator: ",") }
            return try runProcess("sqlite3", [path, ".dump"]).stdout
        }
    }

    func chmod(_ mode: Int, _ paths: String...) throws {
        for path in paths { try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: path) }
    }

    /// A source in WAL mode and a package with a pending field edit and an office edit waiting,
    /// all made read-only for nobody: the files and the directories holding them.
    struct Fixture {
        let dir: TemporaryDirectory
        let source: String
        let package: String
        let out: String
    }

    func makeFixture() throws -> Fixture {
        let dir = try TemporaryDirectory()
        try FileManager.default.createDirectory(atPath: dir.path("office"), withIntermediateDirectories: false)
        try FileManager.default.createDirectory(atPath: dir.path("out"), withIntermediateDirectories: false)
        let source = try dir.copy(testdata: "demo/alaska_source.gpkg", as: "office/source.gpkg")
        let package = dir.path("area.pkg")
        let create = CLI.run(["create", Self.area, "--features", source, "-o", package])
        #expect(create.exitCode == 0, "\(create.stderr)")
        // A field edit and an office edit of two packaged rows, by GDAL's layer API; the source
        // then in WAL mode.
        let ids = try sqlite(package + "/data.gpkg", "SELECT globalid FROM parks ORDER BY fid LIMIT 2")
            .split(separator: "\n").map(String.init)
        try #require(ids.count == 2)
        let edits = try runProcess("/usr/bin/python3", ["-c", """
            from osgeo import ogr
            for path, gid, value in [('\(package)/data.gpkg', '\(ids[0])', 'field'), ('\(source)', '\(ids[1])', 'office')]:
                ds = ogr.Open(path, 1)
                layer = ds.GetLayerByName("parks")
                layer.SetAttributeFilter("globalid = '%s'" % gid)
                f = layer.GetNextFeature()
                f.SetField("note", value)
                assert layer.SetFeature(f) == 0
                ds = None
            """])
        #expect(edits.status == 0, "\(edits.stderr)")
        #expect(try sqlite(source, "PRAGMA journal_mode = WAL") == "wal")
        try chmod(0o755, dir.url.path, dir.path("out"))
        try chmod(0o777, dir.path("out"))
        try chmod(0o444, source, package + "/data.gpkg", package + "/manifest.json")
        try chmod(0o555, dir.path("office"), package)
        return Fixture(dir: dir, source: source, package: package, out: dir.path("out"))
    }

    @Test func readingCommandsAndDryRunsWorkOnReadOnlyFiles() throws {
        let f = try makeFixture()
        let watched = [f.source, f.package + "/data.gpkg", f.dir.path("office"), f.package]
        let before = try snapshot(watched)
        let globalID = try sqlite(f.package + "/data.gpkg", "SELECT globalid FROM parks ORDER BY fid LIMIT 1")
        let commands: [[String]] = [
            ["inspect", f.package],
            ["changes", f.package],
            ["conflicts", f.package],
            ["source", "status", f.source],
            ["source", "replicas", f.source],
            ["estimate", Self.area, "--features", f.source],
            ["identify", f.package, "--at", "-151,63.3"],
            ["related", f.package, "--layer", "parks", "--id", globalID],
            ["create", Self.area, "--features", f.source, "--no-register", "-o", f.out + "/copy.pkg"],
        ]
        for arguments in commands {
            let result = try asNobody(arguments)
            #expect(result.status == 0, "\(arguments.prefix(2)): \(result.stderr)")
        }
        let dryRun = try asNobody(["sync", f.package, "--dry-run", "--json"])
        #expect(dryRun.status == 0, "\(dryRun.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(dryRun.stdout.utf8)) as? [String: Any])
        let uploaded = try #require(report["uploaded"] as? [String: Int])
        let downloaded = try #require(report["downloaded"] as? [String: Int])
        #expect(uploaded["updated"] == 1 && downloaded["updated"] == 1, "\(dryRun.stdout)")
        let notes = try #require(report["notes"] as? [String])
        #expect(notes.contains { $0.contains("package") && $0.contains("private copy") }, "\(notes)")
        #expect(notes.contains { $0.contains("source") && $0.contains("private copy") }, "\(notes)")
        // A real sync must write the package: refused by name, before anything is done.
        let sync = try asNobody(["sync", f.package])
        #expect(sync.status == 1, "\(sync.stderr)")
        #expect(sync.stderr.contains(f.package + "/data.gpkg is read-only"), "\(sync.stderr)")
        #expect(try snapshot(watched) == before)
        // The package built from the read-only source is whole.
        #expect(try sqlite(f.out + "/copy.pkg/data.gpkg", "SELECT note FROM parks WHERE note = 'office'") == "office")
    }

    @Test func aReadOnlySourceWithUncheckpointedWALIsRefusedByName() throws {
        let f = try makeFixture()
        try chmod(0o755, f.dir.path("office"))
        try chmod(0o644, f.source)
        // A writer that ends without closing leaves its commits in the -wal file.
        let writer = try runProcess("/usr/bin/python3", ["-c", """
            import os, sqlite3
            db = sqlite3.connect('\(f.source)')
            db.execute("PRAGMA wal_autocheckpoint = 0")
            db.execute("CREATE TABLE office_notes (note TEXT)")
            db.commit()
            os._exit(0)
            """])
        #expect(writer.status == 0, "\(writer.stderr)")
        try FileManager.default.removeItem(atPath: f.source + "-shm")
        try chmod(0o444, f.source, f.source + "-wal")
        try chmod(0o555, f.dir.path("office"))
        let before = try snapshot([f.dir.path("office")])
        for arguments in [["source", "status", f.source], ["estimate", Self.area, "--features", f.source]] {
            let result = try asNobody(arguments)
            #expect(result.status == 1, "\(result.stderr)")
            #expect(result.stderr.contains(f.source + "-wal"), "\(result.stderr)")
            #expect(result.stderr.contains("read-only open cannot read"), "\(result.stderr)")
        }
        #expect(try snapshot([f.dir.path("office")]) == before)
    }
}
