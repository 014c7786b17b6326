import Foundation
import PackageFormat
import PkgBuildCLI
import Testing
import TestSupport

/// Each condition `inspect` warns about, made to happen on a fresh demo package (mostly with
/// sqlite3, as a careless writer would), and seen in `inspect --json`.
@Suite("inspect warnings")
struct InspectWarningTests {
    @Test func aFreshPackageHasNoWarnings() throws {
        let fixture = try InspectFixture()
        let report = try fixture.inspect()
        #expect((report["warnings"] as? [Any])?.isEmpty == true, "\(report["warnings"] ?? "")")
        #expect(report["state"] as? String == "in-sync")
        let replica = try #require(report["replica"] as? [String: Any])
        #expect(replica["source_state"] as? String == "active")
        let text = CLI.run(["inspect", fixture.package])
        #expect(text.exitCode == 0 && text.stdout.contains("No warnings."), "\(text.stdout)")
    }

    @Test func contentsExtentThatIsNotTheData() throws {
        let fixture = try InspectFixture()
        try fixture.sqlite(fixture.data, "UPDATE gpkg_contents SET min_x = min_x - 5 WHERE table_name = 'parks'")
        let larger = try fixture.warnings("contents-extent")
        #expect(larger.count == 1 && larger[0].contains("layer parks") && !larger[0].contains("outside"), "\(larger)")
        try fixture.sqlite(fixture.data, "UPDATE gpkg_contents SET min_x = min_x + 6 WHERE table_name = 'parks'")
        let smaller = try fixture.warnings("contents-extent")
        #expect(smaller.count == 1 && smaller[0].contains("data lies outside the declared extent"), "\(smaller)")
    }

    @Test func rtreeMissingRowsAndOrphans() throws {
        let fixture = try InspectFixture()
        try fixture.sqlite(fixture.data, "DELETE FROM rtree_parks_geom WHERE id = (SELECT min(id) FROM rtree_parks_geom)")
        let missing = try fixture.warnings("rtree-count")
        #expect(missing.count == 1 && missing[0].contains("layer parks") && missing[0].contains("1 geometry is not in it"), "\(missing)")
        try fixture.sqlite(fixture.data, "INSERT INTO rtree_airports_geom VALUES (999999, 0, 1, 0, 1)")
        let both = try fixture.warnings("rtree-count")
        #expect(both.count == 2, "\(both)")
        #expect(both.contains { $0.contains("layer airports") && $0.contains("1 entry for no geometry") }, "\(both)")
    }

    @Test func rtreeBoxThatIsNotTheEnvelope() throws {
        let fixture = try InspectFixture()
        let fid = try fixture.sqlite(fixture.data, "SELECT fid FROM parks WHERE unit_code = 'DENA'")
        try fixture.sqlite(fixture.data, "UPDATE rtree_parks_geom SET maxx = maxx + 0.5 WHERE id = \(fid)")
        let warnings = try fixture.warnings("rtree-envelope")
        #expect(warnings.count == 1 && warnings[0].contains("first fid \(fid)"), "\(warnings)")
        #expect(try fixture.warnings("rtree-count").isEmpty)
    }

    @Test func rtreeThatIsGone() throws {
        let fixture = try InspectFixture()
        try fixture.sqlite(fixture.data, "DROP TABLE rtree_airports_geom")
        #expect(try fixture.warnings("rtree-missing").first?.contains("layer airports") == true)
    }

    @Test func invalidGeometryWithGEOSReason() throws {
        let fixture = try InspectFixture()
        let fid = try fixture.sqlite(fixture.data, "SELECT fid FROM parks WHERE unit_code = 'DENA'")
        _ = try fixture.dropSpatialTriggers("parks")
        // A bow-tie inside Denali's envelope, its R-tree entry set to match.
        let bowtie = HandMadeBlob.multiPolygon([(-151, 63), (-150, 63.5), (-150, 63), (-151, 63.5), (-151, 63)])
        try fixture.sqlite(fixture.data, """
            UPDATE parks SET geom = \(bowtie) WHERE fid = \(fid);
            UPDATE rtree_parks_geom SET minx = -151, maxx = -150, miny = 63, maxy = 63.5 WHERE id = \(fid);
            """)
        let report = try fixture.inspect()
        let warnings = (report["warnings"] as? [[String: Any]] ?? []).filter { $0["code"] as? String == "invalid-geometry" }
        let message = try #require(warnings.first?["message"] as? String)
        #expect(message.contains("layer parks: 1 invalid geometry") && message.contains("fid \(fid): Self-intersection at (-150.5, 63.25)"),
                "\(message)")
        let parks = try #require(fixture.layer("parks", in: report))
        #expect(parks["invalid_geometries"] as? Int == 1)
        #expect(parks["checked_geometries"] as? Int == 2)
        // The same row that does not decode at all.
        try fixture.sqlite(fixture.data, "UPDATE parks SET geom = X'4750000100000000FFFF' WHERE fid = \(fid)")
        #expect(try fixture.warnings("invalid-geometry").first?.contains("does not decode") == true)
    }

    @Test func validityIsSampledPastTheLimit() throws {
        let fixture = try InspectFixture()
        let report = try fixture.inspect(["--validity-limit", "1"])
        let parks = try #require(fixture.layer("parks", in: report))
        #expect(parks["checked_geometries"] as? Int == 1)
        #expect(parks["count"] as? Int == 2)
    }

    @Test func manifestNamingAnotherReplica() throws {
        let fixture = try InspectFixture()
        try fixture.editManifest { $0["replica_id"] = "{00000000-0000-0000-0000-000000000000}" }
        let warnings = try fixture.warnings("manifest-replica")
        #expect(warnings.count == 1 && warnings[0].contains("{00000000-0000-0000-0000-000000000000}"), "\(warnings)")
    }

    @Test func manifestAndDataWithDifferentLayers() throws {
        let fixture = try InspectFixture()
        try fixture.sqlite(fixture.data, "DELETE FROM gpkg_contents WHERE table_name = 'airports'")
        let gone = try fixture.warnings("manifest-layers")
        #expect(gone.count == 1 && gone[0].contains("manifest.json lists layer airports that data.gpkg does not have"), "\(gone)")

        let other = try InspectFixture()
        try other.editManifest { manifest in
            manifest["layers"] = (manifest["layers"] as? [[String: Any]] ?? []).filter { $0["name"] as? String != "parks" }
        }
        let extra = try other.warnings("manifest-layers")
        #expect(extra.count == 1 && extra[0].contains("data.gpkg has layer parks that manifest.json does not list"), "\(extra)")
    }

    @Test func basemapMetadataLackingKeys() throws {
        let fixture = try InspectFixture()
        try fixture.sqlite(fixture.basemap, "DELETE FROM metadata WHERE name IN ('format', 'bounds')")
        let warnings = try fixture.warnings("tile-metadata")
        #expect(warnings == ["basemap.mbtiles metadata lacks format, bounds"], "\(warnings)")
    }

    @Test func tilesAtAZoomOutsideTheRange() throws {
        let fixture = try InspectFixture()
        // Tile 7/10/34 (mercantile.tile(-150, 63, 7)), inside the area: TMS row 127 - 34 = 93.
        try fixture.sqlite(fixture.basemap, "INSERT INTO map VALUES (7, 10, 93, (SELECT min(tile_id) FROM images))")
        let warnings = try fixture.warnings("tile-zoom-range")
        #expect(warnings.contains { $0.contains("1 tile at zoom 7, outside the manifest's range 0-5") }, "\(warnings)")
        #expect(warnings.contains { $0.contains("metadata says zooms 0-5 but its tiles are at zooms 0-7") }, "\(warnings)")
        #expect(try fixture.warnings("tiles-outside-area").isEmpty)
    }

    @Test func tilesOutsideTheArea() throws {
        let fixture = try InspectFixture()
        // Tile 5/0/31 (mercantile.tile(-179, -84, 5)), far from Alaska: TMS row 0.
        try fixture.sqlite(fixture.basemap, """
            INSERT INTO map VALUES (5, 0, 0, (SELECT min(tile_id) FROM images));
            INSERT INTO map VALUES (2, 9, 0, (SELECT min(tile_id) FROM images));
            """)
        let warnings = try fixture.warnings("tiles-outside-area")
        #expect(warnings.contains { $0.contains("1 tile outside the area of interest: 1 at zoom 5, e.g. 5/0/31") }, "\(warnings)")
        #expect(warnings.contains { $0.contains("1 tile whose column or row cannot exist") }, "\(warnings)")
    }

    @Test func missingBasemapAndApplicationID() throws {
        let fixture = try InspectFixture()
        try FileManager.default.removeItem(atPath: fixture.basemap)
        try fixture.sqlite(fixture.data, "PRAGMA application_id = 0")
        #expect(try fixture.warnings("missing-file").first?.contains("basemap.mbtiles") == true)
        #expect(try fixture.warnings("application-id").count == 1)
    }

    @Test func syncRecordedButNotFinished() throws {
        let fixture = try InspectFixture()
        // What sync commits in the package before it touches the source (PackageSyncState.begin).
        try fixture.sqlite(fixture.data, "INSERT INTO pkgbuild_package VALUES ('pending_sync_id', '{5EC0A6E1-0000-4000-8000-000000000001}'), ('pending_position', '0')")
        let report = try fixture.inspect()
        #expect(report["state"] as? String == "sync-pending")
        let warnings = (report["warnings"] as? [[String: Any]] ?? []).filter { $0["code"] as? String == "pending-sync" }
        #expect((warnings.first?["message"] as? String)?.contains("{5EC0A6E1-0000-4000-8000-000000000001}") == true, "\(warnings)")
    }

    @Test func unresolvedConflictsFromARealSync() throws {
        let fixture = try InspectFixture()
        // The same row changed differently on both sides (an attribute table: no ST_* triggers).
        try fixture.sqlite(fixture.data, "UPDATE park_visitors SET annual_visitors = '10,000-50,000' WHERE unit_code = 'DENA'")
        try fixture.sqlite(fixture.source, "UPDATE park_visitors SET annual_visitors = '50,000-100,000' WHERE unit_code = 'DENA'")
        let sync = CLI.run(["sync", fixture.package, "--source", fixture.source])
        #expect(sync.exitCode == 2, "\(sync.stdout) \(sync.stderr)")
        let report = try fixture.inspect()
        #expect(report["state"] as? String == "conflicts")
        let replica = try #require(report["replica"] as? [String: Any])
        #expect(replica["unresolved_conflicts"] as? Int == 1 && replica["open_conflicts"] as? Int == 1)
        #expect(try fixture.warnings("unresolved-conflicts") == ["1 unresolved conflict from the last sync; see `pkgbuild conflicts` and `pkgbuild resolve`"])
        #expect(CLI.run(["resolve", fixture.package, "--all", "--take", "package"]).exitCode == 0)
        #expect(try fixture.warnings("unresolved-conflicts").isEmpty)
    }

    @Test func replicaUnregisteredOrLeftPendingAtTheSource() throws {
        let fixture = try InspectFixture()
        try fixture.sqlite(fixture.source, "UPDATE pkgbuild_replicas SET state = 'pending'")
        #expect(try fixture.warnings("replica-registration").first?.contains("as pending") == true)
        let id = try fixture.sqlite(fixture.source, "SELECT replica_id FROM pkgbuild_replicas")
        let unregister = CLI.run(["source", "unregister", fixture.source, id])
        #expect(unregister.exitCode == 0, "\(unregister.stderr)")
        let report = try fixture.inspect()
        #expect((report["replica"] as? [String: Any])?["source_state"] as? String == "unregistered")
        // Its headline state says it cannot sync as it is, not "in-sync".
        #expect(report["state"] as? String == "stranded", "\(report["state"] ?? "")")
        let warning = try fixture.warnings("replica-registration").first ?? ""
        #expect(warning.contains("replica \(id) was unregistered") && warning.contains("--reattach"), "\(warning)")
        #expect(warning.contains("run 'pkgbuild sync \(fixture.package) --reattach'"), "\(warning)")
        // In words, with the way out; not "at the source: unregistered".
        let text = CLI.run(["inspect", fixture.package]).stdout
        #expect(text.contains("unregistered at the source, which refuses its syncs: run 'pkgbuild sync \(fixture.package) --reattach'")
                && !text.contains("at the source: unregistered"), "\(text)")
    }

    @Test func pendingEditsByOperationAsTheChangeLogHasThem() throws {
        let fixture = try InspectFixture()
        try fixture.sqlite(fixture.data, """
            UPDATE park_visitors SET annual_visitors = '0-1,000' WHERE unit_code = 'DENA';
            DELETE FROM park_visitors WHERE unit_code = 'LACL';
            INSERT INTO park_visitors (unit_code, annual_visitors) VALUES ('NEW1', '0-1,000');
            INSERT INTO park_visitors (unit_code, annual_visitors) VALUES ('NEW2', '0-1,000');
            """)
        let log = try fixture.sqlite(fixture.data, "SELECT operation, count(*) FROM pkgbuild_edits WHERE table_name = 'park_visitors' GROUP BY 1 ORDER BY 1")
        #expect(log == "delete|1\ninsert|2\nupdate|1")
        let report = try fixture.inspect()
        let pending = try #require(fixture.layer("park_visitors", in: report)?["pending_edits"] as? [String: Any])
        #expect(pending["inserts"] as? Int == 2 && pending["updates"] as? Int == 1 && pending["deletes"] as? Int == 1)
        #expect(report["state"] as? String == "edited")
        let text = CLI.run(["inspect", fixture.package]).stdout
        #expect(text.contains("4 (+2 ~1 -1)"), "\(text)")
    }
}
