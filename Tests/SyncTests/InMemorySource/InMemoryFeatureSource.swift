/// The create side of the in-memory source: the same tables, rows and coordinate systems sync
/// reads, with what `create` needs besides (the layers' schemas, the relationships, the
/// metadata items a package copies). No SQLite: the area's envelope test, the `--where`
/// filter and the key lookups run over Swift values, so a `create` from it shows that the
/// extractor asks nothing of its source that the `FeatureSource` protocol does not say.
/// The metadata items are chosen in `InMemoryFeatureSource+Metadata.swift`.
import Geodatabase
import Geometry
import SourceDrivers

/// What the feature side knows beyond the tracked tables, part of the source's state.
struct InMemoryFeatureRecords: Sendable {
    /// In the source's order.
    var layers: [FeatureLayer] = []
    var relationships: [Relationship] = []
    /// Every metadata item the source has, for all its layers, in the order to write them;
    /// each `create` takes those of its tables.
    var metadata: [PackageMetadataItem] = []
}

/// One `create` or `estimate` reading an in-memory source.
final class InMemoryFeatureSource: FeatureSource {
    let source: InMemorySource
    /// The state a read snapshot sees, while one is open.
    private var snapshot: InMemoryState?

    init(source: InMemorySource) { self.source = source }

    var displayName: String { source.displayName }
    var kind: String { "memory" }
    var location: String { source.displayName }
    var isReadOnly: Bool { false }

    /// What every read sees: the snapshot's state inside one, else the source's now.
    var state: InMemoryState { snapshot ?? source.state }

    func layers() throws -> [FeatureLayer] { state.featureRecords.layers }

    func relationships() throws -> [Relationship] { state.featureRecords.relationships }

    func spatialReferenceSystem(id: Int64) throws -> SpatialReferenceInfo? { state.crs[id] }

    /// It records every change by generation, as a sync-enabled source does.
    func isSyncEnabled() throws -> Bool { true }

    /// The state is one value: the snapshot is a copy of it, taken once for the outermost read.
    func withReadSnapshot<T>(_ body: () throws -> T) throws -> T {
        guard snapshot == nil else { return try body() }
        snapshot = source.state
        defer { snapshot = nil }
        return try body()
    }

    func changePosition() throws -> SourcePosition? {
        SourcePosition(cursor: "mem:\(state.generation)", generation: state.generation)
    }

    func forEachRow(_ query: RowQuery, _ body: (SourceRow) throws -> Void) throws {
        guard let layer = state.featureRecords.layers.first(where: { SQLName($0.name) == SQLName(query.layer) }) else {
            throw SourceError(.unusable, "source \(displayName) has no layer \(query.layer)")
        }
        let table = try stored(layer.name)
        let known = Set(table.shape.columns.map(\.name))
        if let unknown = query.columns.first(where: { !known.contains($0) }) {
            throw SourceError(.unusable, "source \(displayName): layer \(layer.name) has no column '\(unknown)'")
        }
        let filter = InMemoryFilter(table: table.shape)
        for row in Self.byKey(table) where try selects(query.selection, row, geometry: layer.schema.geometry?.name) {
            if let expression = query.filter, try filter.evaluate(expression, on: row) != true { continue }
            try body(SourceRow(columns: query.columns, values: query.columns.map { row[$0] ?? .null }))
        }
    }

    func keys(through hop: MappingHop, from keys: [SourceValue]) throws -> [SourceValue] {
        var result: Set<SourceValue> = []
        for link in try mappingRows(hop.mappingTable) {
            let from = link[hop.fromColumn] ?? .null
            guard keys.contains(where: { SQLValueOrder.equal($0, from) == true }) else { continue }
            result.insert(link[hop.toColumn] ?? .null)
        }
        return Array(result)
    }

    /// Whether the selection takes the row: an envelope test in Swift (the WKB decoded), a key
    /// compared as SQL compares values.
    private func selects(_ selection: RowQuery.Selection, _ row: [String: SourceValue], geometry: String?) throws -> Bool {
        switch selection {
        case .all:
            return true
        case .keys(let column, let values):
            let value = row[column] ?? .null
            return values.contains { SQLValueOrder.equal($0, value) == true }
        case .envelopes(let boxes):
            guard let geometry, case .geometry(let value)? = row[geometry] else { return false }
            guard let envelope = try value.geometry().envelope else { return false }
            return boxes.contains { $0.intersects(envelope) }
        }
    }

    /// The mapping table's rows: a tracked table's, or the links the metadata records.
    func mappingRows(_ mappingTable: String) throws -> [[String: SourceValue]] {
        if let table = state.tables.first(where: { SQLName($0.shape.name) == SQLName(mappingTable) }) {
            return Self.byKey(table)
        }
        return state.featureRecords.metadata.compactMap { item in
            guard case .row(let table, let row) = item, SQLName(table) == SQLName(mappingTable) else { return nil }
            return Dictionary(zip(row.columns, row.values), uniquingKeysWith: { first, _ in first })
        }
    }

    private func stored(_ name: String) throws -> InMemoryTable {
        guard let table = state.tables.first(where: { SQLName($0.shape.name) == SQLName(name) }) else {
            throw SourceError(.unusable, "source \(displayName) has no table \(name)")
        }
        return table
    }

    /// In the order of the key, as a database without ORDER BY commonly reads them.
    private static func byKey(_ table: InMemoryTable) -> [[String: SourceValue]] {
        table.rows.values.sorted {
            SQLValueOrder.compare($0[table.shape.keyColumn] ?? .null, $1[table.shape.keyColumn] ?? .null) ?? 0 < 0
        }
    }
}
