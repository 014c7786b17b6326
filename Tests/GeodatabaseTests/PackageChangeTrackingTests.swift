import Foundation
import Geodatabase
import SQLite
import TestSupport
import Testing

/// A package's data.gpkg is stood in for by a copy of naturalearth.gpkg with tracking installed.
@Suite struct PackageChangeTrackingTests {
    func trackedPackage(_ directory: TemporaryDirectory) throws -> PackageChangeTracking {
        let path = try directory.copy(testdata: "naturalearth.gpkg", as: "data.gpkg")
        let tracking = PackageChangeTracking(connection: try openForEditing(path))
        try tracking.install()
        return tracking
    }

    func globalID(_ tracking: PackageChangeTracking, _ table: String, fid: Int) throws -> String {
        try #require(try tracking.connection.strings("SELECT globalid FROM \(table) WHERE fid = ?", [.integer(Int64(fid))]).first)
    }

    @Test func installIsValidIdempotentAndStartsClean() throws {
        let directory = try TemporaryDirectory()
        let tracking = try trackedPackage(directory)
        #expect(try tracking.trackedTables().map(\.name) == ["countries", "cities"])
        #expect(try tracking.pendingChanges().isEmpty)
        let before = try dump(tracking.connection.path)
        try tracking.install()
        #expect(try dump(tracking.connection.path) == before)
        let validation = try validateGeoPackage(tracking.connection.path)
        #expect(validation.status == 0 && validation.stdout.isEmpty, "\(validation.stdout)")
    }

    @Test func updatesByGDALCollapseIntoOneChangeAgainstTheBase() throws {
        let directory = try TemporaryDirectory()
        let tracking = try trackedPackage(directory)
        let path = tracking.connection.path
        let id = try globalID(tracking, "cities", fid: 3)
        let original = try tracking.connection.strings("SELECT name FROM cities WHERE fid = 3")
        try gdalSQL(path, "UPDATE cities SET name = 'first' WHERE fid = 3")
        try gdalSQL(path, "UPDATE cities SET name = 'second' WHERE fid = 3")

        let changes = try tracking.pendingChanges()
        #expect(changes.count == 1)
        let change = try #require(changes.first)
        #expect(change.table == "cities" && change.globalID == id && change.operation == .update)
        #expect(change.base?["name"]?.stringValue == original.first)
        #expect(change.current?["name"] == "second")
        #expect(change.changedColumns == ["name"])

        // Putting the base value back leaves nothing to sync.
        try tracking.connection.execute("UPDATE cities SET name = ? WHERE fid = 3", [.text(original.first ?? "")])
        #expect(try tracking.pendingChanges().isEmpty)
    }

    @Test func insertThenDeleteLeavesNothingAndNewRowsGetIDs() throws {
        let directory = try TemporaryDirectory()
        let tracking = try trackedPackage(directory)
        let path = tracking.connection.path
        try gdalSQL(path, "INSERT INTO cities (name, geom) SELECT 'offline', geom FROM cities WHERE fid = 1")
        let inserted = try #require(try tracking.connection.strings("SELECT globalid FROM cities WHERE name = 'offline'").first)
        #expect(GlobalID.isWellFormed(inserted))
        try gdalSQL(path, "UPDATE cities SET name = 'offline 2' WHERE name = 'offline'")
        let pending = try tracking.pendingChanges()
        #expect(pending.map(\.operation) == [.insert] && pending.first?.base == nil)
        #expect(pending.first?.changedColumns.contains("name") == true)
        #expect(pending.first?.changedColumns.contains("fid") == false)

        try gdalSQL(path, "DELETE FROM cities WHERE name = 'offline 2'")
        #expect(try tracking.pendingChanges().isEmpty)
        #expect(try tracking.connection.integer("SELECT count(*) FROM pkgbuild_base_cities") == 0)
    }

    @Test func deleteKeepsTheBaseRowAndReinsertIsAnUpdate() throws {
        let directory = try TemporaryDirectory()
        let tracking = try trackedPackage(directory)
        let id = try globalID(tracking, "cities", fid: 7)
        let row = try tracking.connection.query("SELECT * FROM cities WHERE fid = 7")
        try tracking.connection.execute("UPDATE cities SET name = 'edited' WHERE fid = 7")
        try gdalSQL(tracking.connection.path, "DELETE FROM cities WHERE fid = 7")
        let deleted = try #require(try tracking.pendingChanges().first)
        #expect(deleted.operation == .delete && deleted.current == nil && deleted.changedColumns.isEmpty)
        // The base is the row before its FIRST change, not before the delete.
        #expect(deleted.base?.values == row.first)

        // Bringing the same row back (same global id and values) is no change at all.
        try gdalSQL(tracking.connection.path, "INSERT INTO cities SELECT * FROM pkgbuild_base_cities WHERE globalid = '\(id)'")
        #expect(try tracking.connection.strings("SELECT operation FROM pkgbuild_edits") == ["update"])
        #expect(try tracking.pendingChanges().isEmpty)
    }

    @Test func downloadedWritesAreNotEditsAndClearingKeepsLaterChanges() throws {
        let directory = try TemporaryDirectory()
        let tracking = try trackedPackage(directory)
        try tracking.withoutTracking {
            try tracking.connection.execute("UPDATE cities SET name = 'from source' WHERE fid = 1")
            try tracking.connection.execute("DELETE FROM cities WHERE fid = 2")
        }
        #expect(try tracking.pendingChanges().isEmpty)

        try tracking.connection.execute("UPDATE countries SET name = 'a' WHERE fid = 1")
        try tracking.connection.execute("UPDATE countries SET name = 'b' WHERE fid = 2")
        let uploadedThrough = try tracking.position()
        try tracking.connection.execute("UPDATE countries SET name = 'c' WHERE fid = 3")
        try tracking.clearChanges(through: uploadedThrough)
        let left = try tracking.pendingChanges()
        #expect(left.map(\.globalID) == [try globalID(tracking, "countries", fid: 3)])
        #expect(try tracking.connection.integer("SELECT count(*) FROM pkgbuild_base_countries") == 1)
        let before = try tracking.position()
        try tracking.clearChanges()
        #expect(try tracking.pendingChanges().isEmpty)
        #expect(try tracking.connection.integer("SELECT count(*) FROM pkgbuild_base_countries") == 0)
        // Positions go on from where they were: the next sync must not take a new edit for an old one.
        try tracking.connection.execute("UPDATE countries SET name = 'd' WHERE fid = 4")
        #expect(try tracking.pendingChanges().map(\.position) == [before + 1])
    }

    /// As a sync clears what it uploaded, in its own open transaction: the rows it keeps stay
    /// pending with their base.
    @Test func clearingInTheCallersTransactionKeepsTheRowsAskedFor() throws {
        let directory = try TemporaryDirectory()
        let tracking = try trackedPackage(directory)
        try tracking.connection.execute("UPDATE countries SET name = 'a' WHERE fid = 1")
        try tracking.connection.execute("UPDATE countries SET name = 'b' WHERE fid = 2")
        let kept = try globalID(tracking, "countries", fid: 2)
        try tracking.connection.withTransaction(.immediate) {
            try tracking.clearChanges(keeping: [("countries", kept)])
            #expect(tracking.connection.isInTransaction)
        }
        #expect(try tracking.pendingChanges().map(\.globalID) == [kept])
        #expect(try tracking.connection.strings("SELECT globalid FROM pkgbuild_base_countries") == [kept])
    }

}

extension PackageChangeTrackingTests {
    /// Through ``GeoPackage`` (the real ST_* functions), geometry edits are tracked too, and the
    /// R-tree triggers GDAL wrote keep working next to ours.
    @Test func geometryEditsThroughAGeoPackageAreTracked() throws {
        let directory = try TemporaryDirectory()
        let path = try directory.copy(testdata: "naturalearth.gpkg", as: "data.gpkg")
        let tracking = PackageChangeTracking(try GeoPackage(path: path))
        try tracking.install()
        let original = try tracking.connection.query("SELECT geom FROM cities WHERE fid = 2").first?.first
        try tracking.connection.execute("UPDATE cities SET geom = (SELECT geom FROM cities WHERE fid = 1) WHERE fid = 2")
        try tracking.connection.execute("INSERT INTO cities (name, geom) SELECT 'copy', geom FROM cities WHERE fid = 3")
        let changes = try tracking.pendingChanges()
        #expect(changes.map(\.operation) == [.update, .insert])
        #expect(changes.first?.changedColumns == ["geom"])
        #expect(changes.first?.base?["geom"] == original)
        let rtree = try tracking.connection.integer("SELECT count(*) FROM rtree_cities_geom")
        #expect(rtree == 244)
        let validation = try validateGeoPackage(path)
        #expect(validation.status == 0 && validation.stdout.isEmpty, "\(validation.stdout)")
    }

    @Test func sourceEnableByPathRefusesANonGeoPackage() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("notes.txt")
        try Data("not a database".utf8).write(to: URL(fileURLWithPath: path))
        #expect { try SourceGeodatabase.enable(path: path) } throws: {
            ($0 as? GeodatabaseError)?.kind == .notAGeoPackage && "\($0)".contains("notes.txt")
        }
        #expect { try SourceGeodatabase.enable(path: directory.path("missing.gpkg")) } throws: {
            ($0 as? GeodatabaseError)?.kind == .notAGeoPackage
        }
    }
}
