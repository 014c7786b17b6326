import Foundation
import Geodatabase
import PkgBuildCLI
@testable import Sync
import TestSupport
import Testing

/// Filters stored by packages made before the `--where` grammar (SQLite text the grammar
/// refuses, such as a function call) keep syncing: the source's registry holds them, and the
/// authorizer check `create` used then still guards them.
@Suite struct StoredFilterTests {
    static let legacyFilter = "upper(type) = 'MAJOR'"

    /// A package as one made before the grammar: its filter, in the source's registration and
    /// in the package, rewritten the way an older `create` wrote it.
    func legacyPackage(_ fixture: SyncFixture) throws -> URL {
        let url = try fixture.makePackage(arguments: ["--where", "airports:type = 'major'"])
        let registry = try pythonSQLite(fixture.sourcePath, """
            UPDATE pkgbuild_replicas SET options = replace(options, 'type = ''major''', 'upper(type) = ''MAJOR''')
            """)
        #expect(registry.status == 0, "\(registry.stderr)")
        let package = try pythonSQLite(url.appendingPathComponent("data.gpkg").path, """
            UPDATE pkgbuild_layers SET filter = 'upper(type) = ''MAJOR''' WHERE table_name = 'airports'
            """)
        #expect(package.status == 0, "\(package.stderr)")
        let manifest = url.appendingPathComponent("manifest.json")
        let text = try String(contentsOf: manifest, encoding: .utf8)
        try text.replacingOccurrences(of: "type = 'major'", with: Self.legacyFilter).write(to: manifest, atomically: true, encoding: .utf8)
        let options = try fixture.openSource().connection.scalar("SELECT options FROM pkgbuild_replicas")?.stringValue ?? ""
        #expect(options.contains(Self.legacyFilter), "\(options)")
        return url
    }

    @Test func aFilterOutsideTheGrammarThatTheAuthorizerAllowsKeepsSyncing() throws {
        #expect(throws: FilterSyntaxError.self) { try FilterParser.parse(Self.legacyFilter, columns: ["type"]) }
        let fixture = try SyncFixture()
        let url = try legacyPackage(fixture)
        let source = fixture.sourcePath
        // 'Major' meets the stored filter and not the one the package was first made with.
        try ogrSQL(source, "UPDATE airports SET type = 'Major' WHERE name = 'Kodiak'")
        try ogrSQL(source, "UPDATE airports SET type = 'closed' WHERE name = 'Anchorage Int''l'")
        let report = try fixture.sync(url)
        #expect(report.status == .completed, "\(report)")
        let names = try fixture.openPackage(url).connection.query("SELECT name FROM airports ORDER BY name").compactMap { $0[0].stringValue }
        #expect(names == ["Fairbanks Int'l", "Kodiak"])
        #expect(report.left.count == 1 && report.left.first?.reason.contains(Self.legacyFilter) == true, "\(report.left)")
        let verify = CLI.run(["verify", url.path])
        #expect(verify.exitCode == 0, "\(verify.stdout)\(verify.stderr)")
        // And `edit` still judges a row against it.
        let id = try #require(try fixture.openPackage(url).connection.scalar("SELECT fid FROM airports WHERE name = 'Kodiak'")?.int64Value)
        let edit = CLI.run(["edit", url.path, "--layer", "airports", "--id", "\(id)", "--set", "type=mid"])
        #expect(edit.exitCode == 0 && edit.stderr.contains("will leave the package"), "\(edit.stderr)")
    }

    /// A registered filter in the grammar reaches the download as its parse (rendered for the
    /// source, never run as stored text); one from before the grammar as text the authorizer
    /// passed.
    @Test func aRegisteredFilterInTheGrammarIsAppliedAsItsParse() throws {
        let fixture = try SyncFixture()
        let source = try fixture.openSyncSource()
        let table = SyncTable(name: "airports", keyColumn: "fid", globalIDColumn: "globalid",
                              columns: ["fid", "geom", "name", "type", "globalid"])
        let parsed = RegisteredScope(areaWKT: nil, areaCRS: nil, optionsJSON: #"{"where:airports": "TYPE = 'major' OR fid < 2"}"#)
        let expected = FilterExpression.or([.comparison(.column("type"), .equal, .text("major")),
                                            .comparison(.column("fid"), .less, .integer(2))])
        #expect(try parsed.applied(to: [table], source: source).first?.filterExpression == expected)
        let legacy = RegisteredScope(areaWKT: nil, areaCRS: nil, optionsJSON: #"{"where:airports": "upper(type) = 'MAJOR'"}"#)
        let applied = try legacy.applied(to: [table], source: source).first
        #expect(applied?.cut.filter == Self.legacyFilter && applied?.filterExpression == nil)
    }

    @Test func aStoredFilterTheAuthorizerRefusesIsStillRefused() throws {
        let fixture = try SyncFixture()
        let url = try fixture.makePackage(arguments: ["--where", "airports:type = 'major'"])
        let registry = try pythonSQLite(fixture.sourcePath, """
            UPDATE pkgbuild_replicas SET options = replace(options, 'type = ''major''', 'fid IN (SELECT fid FROM parks)')
            """)
        #expect(registry.status == 0, "\(registry.stderr)")
        let error = #expect(throws: SyncError.self) { try fixture.sync(url) }
        #expect(error?.kind == .invalidArgument && error?.message.contains("parks") == true, "\(String(describing: error))")
    }
}
