import Geodatabase
import Geometry
import SourceDrivers

/// `pkgbuild source replicas SRC`: the packages registered at a source, then those
/// unregistered, with when, by what and what replaced them.
struct SourceReplicasCommand: Command {
    static let configuration = CommandConfiguration(
        name: "replicas",
        abstract: "List the replicas (packages) registered at a source, and those unregistered.",
        arguments: [SourceCommand.anySourceArgument, .json("replicas")])

    let source: String
    let json: Bool

    init(_ arguments: ParsedArguments) throws {
        source = try arguments.required("source", as: String.self)
        json = arguments.flag("json")
    }

    func run(_ context: CommandContext) throws {
        let registry = try SourceCommand.openRegistry(source)
        let replicas = try registry.replicas(), retired = try registry.retiredReplicas()
        if json {
            // One list, the unregistered ones with that state and the keys `source status` gives them.
            let unregistered = retired.map { r -> JSONValue in
                guard case .object(let members) = r.jsonValue else { return r.jsonValue }
                return .object([JSONMember("id", .string(r.id)), JSONMember("state", "unregistered")] + members.filter { $0.key != "id" })
            }
            context.print(JSONValue.array(replicas.map(\.jsonValue) + unregistered).prettyPrinted)
            return
        }
        guard !replicas.isEmpty else {
            context.print("No replicas are registered at \(SourceCommand.shown(source)).")
            context.write(SourceStatusCommand.retiredText(retired))
            return
        }
        var table = TextTable(columns: [.init("REPLICA"), .init("NAME"), .init("STATE"), .init("EXTRACTED", alignment: .right),
                                        .init("SYNCED", alignment: .right), .init("LAST SYNC"), .init("LAYERS")])
        for r in replicas {
            table.append([r.id, r.name ?? "-", r.state.rawValue, "\(r.extractionGeneration)", "\(r.syncGeneration)",
                          r.lastSyncAt ?? "never", r.layers.joined(separator: ", ")])
        }
        context.write(table.rendered + SourceStatusCommand.retiredText(retired))
    }
}

/// `pkgbuild source unregister SRC REPLICA`: retires a replica; its package can no longer
/// sync until `sync --reattach` gives it a new one.
struct SourceUnregisterCommand: Command {
    static let configuration = CommandConfiguration(
        name: "unregister",
        abstract: "Retire a replica: its package can no longer sync with the source until 'sync --reattach'.",
        arguments: [
            SourceCommand.anySourceArgument,
            .positional("id", valueName: "REPLICA",
                        help: "The replica: its id, its package directory, or its NAME (see 'pkgbuild source replicas')."),
            .lockTimeout,
            .json("result"),
        ])

    let source: String
    let replica: String
    let json: Bool

    init(_ arguments: ParsedArguments) throws {
        source = try arguments.required("source", as: String.self)
        replica = try arguments.required("id", as: String.self)
        json = arguments.flag("json")
    }

    func run(_ context: CommandContext) throws {
        // A sync or an extraction may hold the write lock for a while; wait for it (--lock-timeout).
        let registry = try SourceCommand.openRegistry(source, busyTimeout: 30)
        let shown = SourceCommand.shown(source)
        let (found, package) = try ReplicaReference(given: replica).resolve(at: registry, source: shown)
        try registry.unregisterReplica(id: found.id, by: "pkgbuild source unregister", successor: nil)
        let reattach = "pkgbuild sync \(package ?? "PKG") --reattach"
        if json {
            context.print(JSONValue.object(["source": .string(shown), "replica_id": .string(found.id), "name": .string(found.name),
                                            "unregistered": .bool(true), "reattach": .string(reattach)]).prettyPrinted)
            return
        }
        let name = found.name.map { " (\($0))" } ?? ""
        context.info("""
            Replica \(found.id)\(name) unregistered from \(shown): its package can no longer sync.
            To bring it back, run '\(reattach)': it gets a new replica, and every \
            difference from the source becomes a conflict to resolve.
            """)
    }
}
