/// The area and `--where` filters a sync applies, taken from the source's replica registry.
///
/// The package is untrusted input: any client that can write data.gpkg can rewrite the area
/// and filters stored there (`pkgbuild_package`, `pkgbuild_layers`, manifest.json), and a
/// filter is SQL that runs at the source. So a sync never executes what the package says;
/// it takes what `create` registered at the source (`pkgbuild_replicas.area_wkt`, `area_crs`
/// and the `where:LAYER` entries of `options`), and parses each filter in the `--where`
/// grammar; one that does not parse (stored before the grammar) runs only once SQLite's
/// authorizer lets it through, as it did then.
import Foundation
import Geodatabase
import PackageFormat
import SourceDrivers

struct RegisteredScope: Sendable, Hashable {
    var areaWKT: String?
    var areaCRS: String?
    /// Filter expressions by lower-cased layer name.
    var filters: [SQLName: String]
    /// The registration's options as the source holds them (clip, CRS...), nil for a scope
    /// taken from the package.
    private var registeredOptions: String?

    init(areaWKT: String?, areaCRS: String?, optionsJSON: String?) {
        self.areaWKT = areaWKT
        self.areaCRS = areaCRS
        registeredOptions = optionsJSON
        filters = Self.filters(in: optionsJSON ?? "{}")
    }

    init(_ replica: Replica) {
        self.init(areaWKT: replica.areaWKT, areaCRS: replica.areaCRS, optionsJSON: replica.optionsJSON)
    }

    /// The `where:LAYER` entries of a registration's options.
    static func filters(in optionsJSON: String) -> [SQLName: String] {
        let object = (try? JSONSerialization.jsonObject(with: Data(optionsJSON.utf8))) as? [String: Any] ?? [:]
        var filters: [SQLName: String] = [:]
        for (key, value) in object where key.hasPrefix("where:") {
            if let expression = value as? String { filters[SQLName(String(key.dropFirst("where:".count)))] = expression }
        }
        return filters
    }

    /// The options JSON a re-attach registers: the old registration's, else the package's
    /// filters (already checked).
    var optionsJSON: String {
        if let registeredOptions { return registeredOptions }
        let object = Dictionary(uniqueKeysWithValues: filters.map { ("where:\($0.key.folded)", $0.value) })
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self)
    }

    /// The state with the registered area in place of the package's.
    func applied(to state: PackageSyncState) -> PackageSyncState {
        var state = state
        state.areaWKT = areaWKT
        state.areaCRS = areaCRS
        return state
    }

    /// The tables with the registered filters in place of the package's, each parsed against
    /// the source's table, or else checked by the authorizer there.
    /// - Throws: ``SyncError`` (`invalidArgument`) naming the filter the check refuses.
    func applied(to tables: [SyncTable], source: any SyncSource) throws -> [SyncTable] {
        try tables.map { table in
            var table = table
            table.cut.filter = filters[table.sqlName]
            table.filterExpression = nil
            if let expression = table.cut.filter {
                do {
                    table.filterExpression = try source.layerFilter(expression, table: table.name).expression
                } catch {
                    throw SyncError(.invalidArgument, "the filter registered for layer \(table.name) cannot be used: \(error)")
                }
            }
            return table
        }
    }
}
