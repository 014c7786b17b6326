import Geodatabase

/// `pkgbuild source ...`: make a geodatabase sync-ready and look after it.
struct SourceCommand: CommandGroup {
    static let configuration = CommandConfiguration(
        name: "source",
        abstract: "Make a source geodatabase sync-ready, declare relationships, show its state.",
        subcommands: [SourceEnableCommand.self, SourceRelateCommand.self, SourceStatusCommand.self,
                      SourceReplicasCommand.self, SourceUnregisterCommand.self])
}

/// `pkgbuild source enable SRC.gpkg`.
struct SourceEnableCommand: Command {
    static let configuration = CommandConfiguration(
        name: "enable",
        abstract: "Make a GeoPackage sync-ready: globalids, change log, generation, replica registry.",
        discussion: "Runs in one transaction; running it again changes nothing.",
        arguments: [
            .positional("source", valueName: "SRC.gpkg", help: "The GeoPackage to enable."),
            .repeatingOption("table", valueName: "NAME", help: "A table to track (repeatable); default every table."),
            .flag("no-wal", help: "Keep the journal mode (WAL lets extractions read while the office edits)."),
        ])

    let source: String
    let tables: [String]
    let useWAL: Bool

    init(_ arguments: ParsedArguments) throws {
        source = try arguments.required("source", as: String.self)
        tables = try arguments.values("table", as: String.self)
        useWAL = !arguments.flag("no-wal")
    }

    func run(_ context: CommandContext) throws {
        let tracked = try SourceGeodatabase.enable(
            path: source, .init(tables: tables.isEmpty ? nil : tables, useWAL: useWAL))
        context.print("Enabled \(source): \(tracked.count) tables tracked (\(tracked.map(\.name).joined(separator: ", ")))")
    }
}

/// `pkgbuild source relate SRC.gpkg --origin T.k --destination U.fk`.
struct SourceRelateCommand: Command {
    static let configuration = CommandConfiguration(
        name: "relate",
        abstract: "Declare a key-based relationship: origin table + key -> destination table + foreign key.",
        arguments: [
            .positional("source", valueName: "SRC.gpkg", help: "The GeoPackage."),
            .option("origin", valueName: "TABLE.KEY", help: "The origin table and its key column.", isRequired: true),
            .option("destination", valueName: "TABLE.KEY", help: "The destination table and its foreign key column.",
                    isRequired: true),
            .option("cardinality", valueName: "KIND", help: "one-to-one, one-to-many or many-to-many.",
                    defaultValue: "one-to-many"),
            .option("name", valueName: "NAME", help: "The relationship's name; default ORIGIN_DESTINATION."),
        ])

    let source: String
    let origin: (table: String, key: String)
    let destination: (table: String, key: String)
    let cardinality: Cardinality
    let name: String?

    static func split(_ text: String, option: String) throws -> (String, String) {
        guard let dot = text.lastIndex(of: "."), dot != text.startIndex, text.index(after: dot) != text.endIndex else {
            throw UsageError("--\(option) \(text): expected TABLE.COLUMN")
        }
        return (String(text[..<dot]), String(text[text.index(after: dot)...]))
    }

    init(_ arguments: ParsedArguments) throws {
        source = try arguments.required("source", as: String.self)
        origin = try Self.split(try arguments.required("origin", as: String.self), option: "origin")
        destination = try Self.split(try arguments.required("destination", as: String.self), option: "destination")
        let kind = try arguments.value("cardinality", as: String.self) ?? "one-to-many"
        guard let c = Cardinality(rawValue: kind) else {
            throw UsageError("--cardinality \(kind): expected one of \(Cardinality.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        cardinality = c
        name = try arguments.value("name", as: String.self)
    }

    func run(_ context: CommandContext) throws {
        let geoPackage = try GeoPackage(path: source)
        let r = try Relationship.declare(originTable: origin.table, originKey: origin.key,
                                         destinationTable: destination.table, destinationKey: destination.key,
                                         cardinality: cardinality, name: name, in: geoPackage.connection)
        context.print("Related \(r.originTable).\(r.originKey) -> \(r.destinationTable).\(r.destinationKey) "
            + "(\(r.cardinality.rawValue)) as \(r.name)")
    }
}

/// `pkgbuild source status SRC.gpkg`.
struct SourceStatusCommand: Command {
    static let configuration = CommandConfiguration(
        name: "status",
        abstract: "Show a source's tracked tables, generation, relationships and replicas.",
        arguments: [
            .positional("source", valueName: "SRC.gpkg", help: "The GeoPackage."),
            .flag("json", help: "Print the status as JSON."),
        ])

    let source: String
    let json: Bool

    init(_ arguments: ParsedArguments) throws {
        source = try arguments.required("source", as: String.self)
        json = arguments.flag("json")
    }

    func run(_ context: CommandContext) throws {
        let status = try SourceGeodatabase(try GeoPackage(path: source, readOnly: true)).status()
        if json {
            context.print(JSONValue.object([
                "path": .string(status.path), "generation": .int(status.generation),
                "tables": .array(status.tables.map { .object(["name": .string($0.name), "rows": .int($0.rowCount)]) }),
                "relationships": .array(status.relationships.map { r in
                    .object(["name": .string(r.name), "origin": .string("\(r.originTable).\(r.originKey)"),
                             "destination": .string("\(r.destinationTable).\(r.destinationKey)"),
                             "cardinality": .string(r.cardinality.rawValue)])
                }),
                "replicas": .array(status.replicas.map { r in
                    .object(["id": .string(r.id), "name": .string(r.name), "state": .string(r.state.rawValue),
                             "extractionGeneration": .int(r.extractionGeneration), "syncGeneration": .int(r.syncGeneration)])
                }),
            ]).prettyPrinted)
            return
        }
        context.print("Source      \(status.path)")
        context.print("Generation  \(status.generation)")
        var tables = TextTable(columns: [.init("TABLE"), .init("ROWS", alignment: .right)])
        for t in status.tables { tables.append([t.name, "\(t.rowCount)"]) }
        context.write("\n" + tables.rendered)
        if !status.relationships.isEmpty {
            var rels = TextTable(columns: [.init("RELATIONSHIP"), .init("ORIGIN"), .init("DESTINATION"), .init("CARDINALITY")])
            for r in status.relationships {
                rels.append([r.name, "\(r.originTable).\(r.originKey)", "\(r.destinationTable).\(r.destinationKey)", r.cardinality.rawValue])
            }
            context.write("\n" + rels.rendered)
        }
        var replicas = TextTable(columns: [.init("REPLICA"), .init("NAME"), .init("STATE"), .init("GENERATION", alignment: .right)])
        for r in status.replicas { replicas.append([r.id, r.name ?? "-", r.state.rawValue, "\(r.extractionGeneration)"]) }
        context.write("\n" + (status.replicas.isEmpty ? "No replicas.\n" : replicas.rendered))
    }
}
