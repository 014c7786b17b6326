import Foundation
import Geodatabase
import SQLite
import TestSupport
import Testing

/// `INSERT OR REPLACE` by a client on Python's sqlite3 (SQLite's defaults: `recursive_triggers`
/// off, so the rows a REPLACE deletes fire no DELETE trigger) is a delete plus an insert, in a
/// package and at a source; an `INSERT OR IGNORE` or a failed INSERT records nothing.
@Suite struct ReplaceTrackingTests {
    func trackedPackage(_ directory: TemporaryDirectory) throws -> PackageChangeTracking {
        let path = try directory.copy(testdata: "naturalearth.gpkg", as: "data.gpkg")
        // A second UNIQUE index, made before tracking so its triggers know it.
        try Connection(path: path, mode: .readWrite).execute("CREATE UNIQUE INDEX cities_name ON cities (name)")
        let tracking = PackageChangeTracking(connection: try openForEditing(path))
        try tracking.install()
        return tracking
    }

    func run(_ path: String, _ sql: String, recursive: Bool = false, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let result = try pythonSQLite(path, sql, recursiveTriggers: recursive)
        #expect(result.status == 0, "python sqlite3: \(result.stderr)", sourceLocation: sourceLocation)
    }

    func row(_ connection: Connection, fid: Int) throws -> (globalID: String, name: String) {
        let row = try #require(try connection.query("SELECT globalid, name FROM cities WHERE fid = ?", [.integer(Int64(fid))]).first)
        return (row[0].stringValue ?? "", row[1].stringValue ?? "")
    }

    @Test(arguments: [false, true])
    func replaceOnTheKeyIsADeleteAndAnInsert(recursive: Bool) throws {
        let directory = try TemporaryDirectory()
        let tracking = try trackedPackage(directory)
        let old = try row(tracking.connection, fid: 3)
        try run(tracking.connection.path, "INSERT OR REPLACE INTO cities (fid, geom, name) SELECT 3, geom, 'Replaced' FROM cities WHERE fid = 3",
                recursive: recursive)
        let new = try row(tracking.connection, fid: 3)
        #expect(new.globalID != old.globalID && new.name == "Replaced")
        let pending = try tracking.pendingChanges()
        #expect(pending.map(\.operation) == [.delete, .insert])
        #expect(pending.map(\.globalID) == [old.globalID, new.globalID])
        #expect(pending.first?.base?["name"]?.stringValue == old.name)
        #expect(try tracking.connection.integer("SELECT count(*) FROM pkgbuild_replaced") == 0)
    }

    @Test(arguments: [false, true])
    func replaceOnAnotherUniqueIndexDeletesTheRowItCollidedWith(recursive: Bool) throws {
        let directory = try TemporaryDirectory()
        let tracking = try trackedPackage(directory)
        let vaduz = try row(tracking.connection, fid: 3)
        try run(tracking.connection.path, "INSERT OR REPLACE INTO cities (geom, name) SELECT geom, 'Vaduz' FROM cities WHERE fid = 5",
                recursive: recursive)
        #expect(try tracking.connection.integer("SELECT count(*) FROM cities WHERE fid = 3") == 0)
        let pending = try tracking.pendingChanges()
        #expect(pending.map(\.operation) == [.delete, .insert])
        #expect(pending.first?.globalID == vaduz.globalID && pending.first?.base?["name"]?.stringValue == "Vaduz")
    }

    @Test(arguments: [false, true])
    func replaceKeepingTheGlobalIDIsAnUpdateAgainstTheFirstBase(recursive: Bool) throws {
        let directory = try TemporaryDirectory()
        let tracking = try trackedPackage(directory)
        let old = try row(tracking.connection, fid: 3)
        try run(tracking.connection.path, """
            UPDATE cities SET name = 'First edit' WHERE fid = 3;
            INSERT OR REPLACE INTO cities (fid, geom, name, globalid) SELECT fid, geom, 'Second edit', globalid FROM cities WHERE fid = 3
            """, recursive: recursive)
        let pending = try tracking.pendingChanges()
        #expect(pending.count == 1)
        #expect(pending.first?.operation == .update && pending.first?.globalID == old.globalID)
        #expect(pending.first?.base?["name"]?.stringValue == old.name)
        #expect(pending.first?.current?["name"]?.stringValue == "Second edit")
    }

    @Test(arguments: [false, true])
    func replacingAnOfflineInsertLeavesOnlyTheNewInsert(recursive: Bool) throws {
        let directory = try TemporaryDirectory()
        let tracking = try trackedPackage(directory)
        try run(tracking.connection.path, """
            INSERT INTO cities (fid, geom, name) SELECT 1000, geom, 'Offline' FROM cities WHERE fid = 1;
            INSERT OR REPLACE INTO cities (fid, geom, name) SELECT 1000, geom, 'Offline again' FROM cities WHERE fid = 1
            """, recursive: recursive)
        let pending = try tracking.pendingChanges()
        #expect(pending.map(\.operation) == [.insert])
        #expect(pending.first?.current?["name"]?.stringValue == "Offline again")
        #expect(try tracking.connection.integer("SELECT count(*) FROM pkgbuild_base_cities") == 0)
    }

    @Test func ignoredAndFailedInsertsRecordNothingAndLeaveNoBase() throws {
        let directory = try TemporaryDirectory()
        let tracking = try trackedPackage(directory)
        let path = tracking.connection.path
        try run(path, "INSERT OR IGNORE INTO cities (fid, geom, name) SELECT 3, geom, 'Ignored' FROM cities WHERE fid = 3")
        #expect(try tracking.pendingChanges().isEmpty)
        let failed = try pythonSQLite(path, "INSERT INTO cities (geom, name) SELECT geom, 'Vaduz' FROM cities WHERE fid = 5")
        #expect(failed.status != 0 && failed.stderr.contains("UNIQUE"), "\(failed.stderr)")
        #expect(try tracking.pendingChanges().isEmpty)
        // What the ignored insert staged goes with the next edit; the edit's base is the row as it is then.
        try tracking.withoutTracking { try tracking.connection.execute("UPDATE cities SET name = 'Downloaded' WHERE fid = 3") }
        try run(path, "UPDATE cities SET name = 'Edited' WHERE fid = 3")
        let pending = try tracking.pendingChanges()
        #expect(pending.map(\.operation) == [.update] && pending.first?.base?["name"]?.stringValue == "Downloaded")
        #expect(try tracking.connection.integer("SELECT count(*) FROM pkgbuild_replaced") == 0)
    }

    /// A sync's inserts skip the insert trigger (nothing is staged in its context); what an
    /// ignored insert staged before still goes with the next edit, and a row inserted without a
    /// global id still gets one.
    @Test func downloadedInsertsLeaveWhatAnIgnoredInsertStagedToTheNextEdit() throws {
        let directory = try TemporaryDirectory()
        let tracking = try trackedPackage(directory)
        let path = tracking.connection.path
        try run(path, "INSERT OR IGNORE INTO cities (fid, geom, name) SELECT 3, geom, 'Ignored' FROM cities WHERE fid = 3")
        #expect(try tracking.connection.integer("SELECT count(*) FROM pkgbuild_replaced") == 1)
        try tracking.withoutTracking {
            try tracking.connection.execute("""
                INSERT INTO cities (fid, geom, name, globalid) SELECT 9001, NULL, 'Brought', '{6F1C2B9A-0D3E-4A5B-8C7D-1E2F3A4B5C6D}'
                FROM cities WHERE fid = 1
                """)
            try tracking.connection.execute("UPDATE cities SET name = 'Downloaded' WHERE fid = 3")
        }
        #expect(try tracking.pendingChanges().isEmpty)
        #expect(try tracking.connection.integer("SELECT count(*) FROM pkgbuild_replaced") == 1)
        // Clearing the (no) edits keeps the staged base, which no edit names.
        try tracking.clearChanges()
        #expect(try tracking.connection.integer("SELECT count(*) FROM pkgbuild_base_cities") == 1)
        try run(path, "UPDATE cities SET name = 'Edited' WHERE fid = 3")
        let pending = try tracking.pendingChanges()
        #expect(pending.map(\.operation) == [.update] && pending.first?.base?["name"]?.stringValue == "Downloaded")
        #expect(try tracking.connection.integer("SELECT count(*) FROM pkgbuild_replaced") == 0)
        #expect(try tracking.connection.integer("SELECT count(*) FROM pkgbuild_base_cities") == 1)
        try tracking.withoutTracking {
            try tracking.connection.execute("INSERT INTO cities (fid, geom, name) SELECT 9002, NULL, 'No id' FROM cities WHERE fid = 2")
        }
        let filled = try tracking.connection.scalar("SELECT globalid FROM cities WHERE fid = 9002")?.stringValue
        #expect(filled.map { GlobalID.isWellFormed($0) } == true, "\(String(describing: filled))")
        #expect(try tracking.pendingChanges().count == 1)
    }

    @Test func ignoreClausesOfTheWriterDoNotSilenceTheRecord() throws {
        let directory = try TemporaryDirectory()
        let tracking = try trackedPackage(directory)
        try run(tracking.connection.path, """
            UPDATE OR IGNORE cities SET name = 'One' WHERE fid = 4;
            UPDATE OR ROLLBACK cities SET name = 'Two' WHERE fid = 4;
            UPDATE OR REPLACE cities SET name = 'Three' WHERE fid = 4
            """)
        let pending = try tracking.pendingChanges()
        #expect(pending.count == 1 && pending.first?.current?["name"]?.stringValue == "Three")
        #expect(pending.first?.base?["name"]?.stringValue == "Lobamba")
    }

    // MARK: - At a source

    func enabledSource(_ directory: TemporaryDirectory) throws -> SourceGeodatabase {
        let path = try directory.copy(testdata: "naturalearth.gpkg")
        try Connection(path: path, mode: .readWrite).execute("CREATE UNIQUE INDEX cities_name ON cities (name)")
        let source = SourceGeodatabase(connection: try openForEditing(path))
        try source.enable(.init(useWAL: false))
        return source
    }

    func log(_ source: SourceGeodatabase) throws -> [String: ChangeOperation] {
        Dictionary(uniqueKeysWithValues: try source.changes(since: 0).map { ($0.globalID, $0.operation) })
    }

    @Test(arguments: [false, true])
    func aReplaceAtTheSourceLogsATombstone(recursive: Bool) throws {
        let directory = try TemporaryDirectory()
        let source = try enabledSource(directory)
        let path = source.connection.path
        let old3 = try row(source.connection, fid: 3), old4 = try row(source.connection, fid: 4)
        try run(path, """
            INSERT OR REPLACE INTO cities (fid, geom, name) SELECT 3, geom, 'Replaced' FROM cities WHERE fid = 3;
            INSERT OR REPLACE INTO cities (fid, geom, name, globalid) SELECT fid, geom, 'Kept id', globalid FROM cities WHERE fid = 4
            """, recursive: recursive)
        let new3 = try row(source.connection, fid: 3)
        #expect(try log(source) == [old3.globalID: .delete, new3.globalID: .insert, old4.globalID: .update])
        #expect(try source.connection.integer("SELECT count(*) FROM pkgbuild_replaced") == 0)
    }

    @Test func anIgnoredInsertAtTheSourceLogsNothingAndUpdateOrIgnoreIsLogged() throws {
        let directory = try TemporaryDirectory()
        let source = try enabledSource(directory)
        let path = source.connection.path
        try run(path, "UPDATE cities SET name = 'First' WHERE fid = 6")
        let first = try source.generation()
        try run(path, """
            INSERT OR IGNORE INTO cities (fid, geom, name) SELECT 3, geom, 'Ignored' FROM cities WHERE fid = 3;
            UPDATE OR IGNORE cities SET name = 'Second' WHERE fid = 6
            """)
        let changes = try source.changes(since: first)
        #expect(changes.count == 1 && changes.first?.operation == .update, "\(changes)")
        #expect(try source.changes(since: 0).count == 1)
    }
}
