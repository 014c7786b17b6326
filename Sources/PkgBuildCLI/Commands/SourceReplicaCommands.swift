import Geodatabase

/// `pkgbuild source replicas SRC`: the packages registered at a source.
struct SourceReplicasCommand: Command {
    static let configuration = CommandConfiguration(
        name: "replicas",
        abstract: "List the replicas (packages) registered at a source.",
        arguments: [SourceCommand.sourceArgument, .json("replicas")])

    let source: String
    let json: Bool

    init(_ arguments: ParsedArguments) throws {
        source = try arguments.required("source", as: String.self)
        json = arguments.flag("json")
    }

    func run(_ context: CommandContext) throws {
        let geoPackage = try SourceCommand.openForReading(source)
        let replicas = try SourceGeodatabase(connection: geoPackage.connection).replicas()
        if json {
            context.print(JSONValue.array(replicas.map(\.jsonValue)).prettyPrinted)
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
            SourceCommand.sourceArgument,
            .positional("id", valueName: "ID", help: "The replica id (see 'pkgbuild source replicas')."),
            .lockTimeout,
            .json("result"),
        ])

    let source: String
    let id: String
    let json: Bool

    init(_ arguments: ParsedArguments) throws {
        source = try arguments.required("source", as: String.self)
        id = try arguments.required("id", as: String.self)
        json = arguments.flag("json")
    }

    func run(_ context: CommandContext) throws {
        // A sync or an extraction may hold the write lock for a while; wait for it (--lock-timeout).
        let geoPackage = try SourceCommand.open(source, busyTimeout: 30)
        try SourceGeodatabase(connection: geoPackage.connection).unregisterReplica(id: id)
        if json {
            context.print(JSONValue.object(["source": .string(source), "replica_id": .string(id),
                                            "unregistered": .bool(true)]).prettyPrinted)
            return
        }
        context.print("Replica \(id) unregistered from \(source).")
    }
}
