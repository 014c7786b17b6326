import Foundation
import Geodatabase

/// `pkgbuild source replicas SRC`: the packages registered at a source.
struct SourceReplicasCommand: Command {
    static let configuration = CommandConfiguration(
        name: "replicas",
        abstract: "List the replicas (packages) registered at a source.",
        arguments: [
            .positional("source", valueName: "SRC", help: "The source geodatabase."),
            .flag("json", help: "Print the replicas as JSON."),
        ])

    let source: String
    let json: Bool

    init(_ arguments: ParsedArguments) throws {
        source = try arguments.required("source", as: String.self)
        json = arguments.flag("json")
    }

    func run(_ context: CommandContext) throws {
        let geodatabase = try GeoPackage(path: source, readOnly: true)
        let replicas = try SourceGeodatabase(connection: geodatabase.connection).replicas()
        if json {
            context.print(JSONValue.array(replicas.map { r in
                .object(["id": .string(r.id), "name": .string(r.name), "state": .string(r.state.rawValue),
                         "extraction_generation": .int(r.extractionGeneration), "sync_generation": .int(r.syncGeneration),
                         "area_wkt": .string(r.areaWKT), "area_crs": .string(r.areaCRS),
                         "layers": .array(r.layers.map { .string($0) }), "created_at": .string(r.createdAt),
                         "last_sync_at": .string(r.lastSyncAt), "last_sync_id": .string(r.lastSyncID)])
            }).prettyPrinted)
            return
        }
        guard !replicas.isEmpty else {
            context.print("No replicas are registered at \(source).")
            return
        }
        var table = TextTable(columns: [.init("REPLICA"), .init("STATE"), .init("EXTRACTED", alignment: .right),
                                        .init("SYNCED", alignment: .right), .init("LAST SYNC"), .init("LAYERS")])
        for r in replicas {
            table.append([r.id, r.state.rawValue, "\(r.extractionGeneration)", "\(r.syncGeneration)",
                          r.lastSyncAt ?? "never", r.layers.joined(separator: ", ")])
        }
        context.write(table.rendered)
    }
}

/// `pkgbuild source unregister SRC ID`: retires a replica; its package can no longer sync.
struct SourceUnregisterCommand: Command {
    static let configuration = CommandConfiguration(
        name: "unregister",
        abstract: "Retire a replica: its package can no longer sync with the source.",
        arguments: [
            .positional("source", valueName: "SRC", help: "The source geodatabase."),
            .positional("id", valueName: "ID", help: "The replica id (see 'pkgbuild source replicas')."),
        ])

    let source: String
    let id: String

    init(_ arguments: ParsedArguments) throws {
        source = try arguments.required("source", as: String.self)
        id = try arguments.required("id", as: String.self)
    }

    func run(_ context: CommandContext) throws {
        let geodatabase = try GeoPackage(path: source, busyTimeout: 30)
        try SourceGeodatabase(connection: geodatabase.connection).unregisterReplica(id: id)
        context.print("Replica \(id) unregistered from \(source).")
    }
}
