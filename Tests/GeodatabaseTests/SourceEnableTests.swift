import Foundation
import Geodatabase
import SQLite
import TestSupport
import Testing

@Suite struct SourceEnableTests {
    @Test(arguments: ["ne_parks.gpkg", "naturalearth.gpkg"])
    func enableAddsUniqueGlobalIDsAndStaysValid(file: String) throws {
        let directory = try TemporaryDirectory()
        let path = try directory.copy(testdata: file)
        let before = try GeoPackageSchema.read(from: Connection(path: path, mode: .readOnly))
        let source = SourceGeodatabase(connection: try openForEditing(path))
        let tables = try source.enable()

        let expected = before.layers.filter { $0.kind == .features }.map(\.name)
        #expect(!expected.isEmpty)
        #expect(tables.map(\.name) == expected)
        for table in tables {
            #expect(table.globalIDColumn == "globalid")
            #expect(table.keyColumn == "fid")
            let rows = try source.connection.integer("SELECT count(*) FROM \"\(table.name)\"")
            #expect(try source.connection.integer("SELECT count(DISTINCT globalid) FROM \"\(table.name)\"") == rows)
            let ids = try source.connection.strings("SELECT globalid FROM \"\(table.name)\"")
            #expect(ids.allSatisfy { GlobalID.isWellFormed($0) && $0.hasPrefix("{") && $0 == $0.uppercased() })
            // Version 4, RFC 4122 variant.
            #expect(ids.allSatisfy { Array($0)[15] == "4" && "89AB".contains(Array($0)[20]) })
        }
        #expect(try source.generation() == 0)
        #expect(try source.connection.journalMode == .wal)

        let validation = try validateGeoPackage(path)
        #expect(validation.status == 0 && validation.stdout.isEmpty && validation.stderr.isEmpty,
                "\(validation.stdout)\(validation.stderr)")
        // GDAL opens it without a warning about the extension, reading and writing. (It lists
        // our tables as non-spatial layers in a file with no attribute table: its documented
        // LIST_ALL_TABLES=AUTO behaviour for tables outside gpkg_contents.)
        let gdal = try runProcess("ogrinfo", ["-ro", "-q", path])
        #expect(gdal.status == 0 && gdal.stderr.isEmpty, "\(gdal.stderr)")
        for layer in expected { #expect(gdal.stdout.contains(": \(layer) ("), "\(gdal.stdout)") }
    }

    @Test func enablingTwiceChangesNothing() throws {
        let directory = try TemporaryDirectory()
        let path = try directory.copy(testdata: "naturalearth.gpkg")
        try SourceGeodatabase(connection: try openForEditing(path)).enable()
        let first = try dump(path)
        let firstBytes = try Data(contentsOf: URL(fileURLWithPath: path))
        try SourceGeodatabase(connection: try openForEditing(path)).enable()
        #expect(try dump(path) == first)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == firstBytes)
    }

    @Test func gdalAndSQLiteEditsAreLoggedWithTombstones() throws {
        let directory = try TemporaryDirectory()
        let path = try directory.copy(testdata: "ne_parks.gpkg")
        let source = SourceGeodatabase(connection: try openForEditing(path))
        try source.enable(.init(useWAL: false))
        let id3 = try #require(try source.connection.strings("SELECT globalid FROM parks WHERE fid = 3").first)
        let id4 = try #require(try source.connection.strings("SELECT globalid FROM parks WHERE fid = 4").first)

        try gdalSQL(path, "UPDATE parks SET unit_name = 'X' WHERE fid = 3")
        try gdalSQL(path, "DELETE FROM parks WHERE fid = 4")
        try gdalSQL(path, "INSERT INTO parks (unit_code, unit_name, geom) SELECT 'NEW', 'copy', geom FROM parks WHERE fid = 5")
        // Rewriting equal values (as GDAL does for untouched fields) is no change.
        try gdalSQL(path, "UPDATE parks SET unit_code = unit_code WHERE fid = 6")
        try source.connection.execute("UPDATE parks SET note = 'sqlite' WHERE fid = 7")

        let changes = try source.changes(since: 0)
        let inserted = try #require(try source.connection.strings("SELECT globalid FROM parks WHERE unit_code = 'NEW'").first)
        let id7 = try #require(try source.connection.strings("SELECT globalid FROM parks WHERE fid = 7").first)
        #expect(changes.map(\.globalID) == [id3, id4, inserted, id7])
        #expect(changes.map(\.operation) == [.update, .delete, .insert, .update])
        #expect(changes.map(\.generation) == [1, 2, 3, 4])
        #expect(GlobalID.isWellFormed(inserted))
        #expect(try source.generation() == 4)
        #expect(try source.changes(since: 2).count == 2)

        // A second change of a row moves its entry to a new generation; the log keeps one row.
        try gdalSQL(path, "UPDATE parks SET unit_name = 'Y' WHERE fid = 3")
        let latest = try source.changes(since: 4)
        #expect(latest.map(\.globalID) == [id3] && latest.first?.generation == 5)
        #expect(try source.connection.integer("SELECT count(*) FROM pkgbuild_changes") == 4)

        // ogr2ogr -append: new features without a globalid get one each.
        let more = directory.path("more.geojson")
        let export = try runProcess("ogr2ogr", ["-f", "GeoJSON", more, TestData.url("ne_parks.gpkg").path, "parks",
                                                "-where", "fid <= 2"])
        #expect(export.status == 0)
        let append = try runProcess("ogr2ogr", ["-append", path, more, "-nln", "parks"])
        #expect(append.status == 0, "\(append.stderr)")
        let appended = try source.changes(since: 5)
        #expect(appended.count == 2 && appended.allSatisfy { $0.operation == .insert })
        #expect(Set(appended.map(\.globalID)).count == 2)
        let validation = try validateGeoPackage(path)
        #expect(validation.status == 0 && validation.stdout.isEmpty, "\(validation.stdout)")
    }

    @Test func aGlobalIDCannotBeChanged() throws {
        let directory = try TemporaryDirectory()
        let path = try directory.copy(testdata: "ne_parks.gpkg")
        let source = SourceGeodatabase(connection: try openForEditing(path))
        try source.enable(.init(useWAL: false))
        #expect(throws: SQLiteError.self) { try source.connection.execute("UPDATE parks SET globalid = 'x' WHERE fid = 1") }
        #expect(throws: SQLiteError.self) { try source.connection.execute("UPDATE parks SET globalid = NULL WHERE fid = 1") }
        #expect(try source.generation() == 0)
    }

    @Test func applyContextStampsTheReplicaSoDownloadsSkipItsOwnUpload() throws {
        let directory = try TemporaryDirectory()
        let path = try directory.copy(testdata: "ne_parks.gpkg")
        let source = SourceGeodatabase(connection: try openForEditing(path))
        try source.enable(.init(useWAL: false))
        try ApplyContext.with(replicaID: "R1", syncID: "S1", on: source.connection) {
            try source.connection.execute("UPDATE parks SET note = 'from R1' WHERE fid IN (1, 2)")
        }
        try source.connection.execute("UPDATE parks SET note = 'office' WHERE fid = 2")
        let all = try source.changes(since: 0)
        #expect(all.map(\.replicaID) == ["R1", nil])
        #expect(all.first?.syncID == "S1")
        let forR1 = try source.changes(since: 0, excludingReplica: "R1")
        #expect(forR1.count == 1 && forR1.first?.replicaID == nil)
        #expect(try source.connection.integer("SELECT count(*) FROM pkgbuild_apply_context") == 0)
    }

    @Test func adoptsAnEsriStyleGlobalIDColumn() throws {
        let directory = try TemporaryDirectory()
        let path = try directory.copy(testdata: "ne_parks.gpkg")
        let setup = try openForEditing(path)
        try setup.execute("ALTER TABLE parks ADD COLUMN \"GlobalID\" TEXT(38)")
        try setup.execute("UPDATE parks SET \"GlobalID\" = '{0F1E2D3C-4B5A-4978-8695-A4B3C2D1E0F' || (fid % 10) || '}' WHERE fid <= 9")
        let source = SourceGeodatabase(connection: setup)
        let tables = try source.enable(.init(useWAL: false))
        #expect(tables.first?.globalIDColumn == "GlobalID")
        let fields = try GeoPackageSchema.read(from: setup).layer(named: "parks")?.fields.map(\.name) ?? []
        #expect(!fields.contains("globalid"))
        #expect(try setup.strings("SELECT \"GlobalID\" FROM parks WHERE fid = 3") == ["{0F1E2D3C-4B5A-4978-8695-A4B3C2D1E0F3}"])
        #expect(try setup.integer("SELECT count(DISTINCT \"GlobalID\") FROM parks") == 61)
        try setup.execute("DELETE FROM parks WHERE fid = 3")
        #expect(try source.changes(since: 0).map(\.globalID) == ["{0F1E2D3C-4B5A-4978-8695-A4B3C2D1E0F3}"])
    }

    @Test func refusesAGlobalIDColumnThatCannotHoldIDsAndChangesNothing() throws {
        let directory = try TemporaryDirectory()
        let path = try directory.copy(testdata: "ne_parks.gpkg")
        let setup = try openForEditing(path)
        try setup.execute("ALTER TABLE parks ADD COLUMN GLOBALID INTEGER")
        let before = try dump(path)
        #expect { try SourceGeodatabase(connection: setup).enable(.init(useWAL: false)) } throws: { error in
            (error as? GeodatabaseError)?.kind == .invalidContent && "\(error)".contains("parks.GLOBALID")
        }
        #expect(try dump(path) == before)
    }

    @Test func refusesDuplicateGlobalIDs() throws {
        let directory = try TemporaryDirectory()
        let path = try directory.copy(testdata: "ne_parks.gpkg")
        let setup = try openForEditing(path)
        try setup.execute("ALTER TABLE parks ADD COLUMN globalid TEXT")
        try setup.execute("UPDATE parks SET globalid = '{same}' WHERE fid IN (1, 2)")
        #expect { try SourceGeodatabase(connection: setup).enable(.init(useWAL: false)) } throws: { error in
            (error as? GeodatabaseError)?.kind == .invalidContent && "\(error)".contains("'{same}' 2 times")
        }
        #expect(try setup.scalar("SELECT 1 FROM sqlite_master WHERE name = 'pkgbuild_changes'") == nil)
    }

    @Test func tracksRelatedTablesMappingTablesByRowid() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("related.gpkg")
        try FileManager.default.copyItem(atPath: TestData.fixture("geodatabase/related.gpkg").path, toPath: path)
        let source = SourceGeodatabase(connection: try openForEditing(path))
        let tables = try source.enable(.init(useWAL: false))
        #expect(tables.map(\.name) == ["trees", "inspections", "trees_inspections"])
        #expect(tables.last?.keyColumn == "rowid")
        try source.connection.execute("INSERT INTO trees_inspections (base_id, related_id) VALUES (2, 3)")
        #expect(try source.changes(since: 0).map(\.table) == ["trees_inspections"])
        let validation = try validateGeoPackage(path)
        #expect(validation.status == 0 && validation.stdout.isEmpty, "\(validation.stdout)")
    }
}
