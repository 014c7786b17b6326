import Geodatabase
import Geometry
import PostgreSQLSource

/// `pkgbuild source relate SRC.gpkg --origin T.K --destination T.K`: declares a key-based
/// relationship, so that extraction brings related rows along and sync keeps them together.
public struct SourceRelateCommand: Command {
    public static let configuration = CommandConfiguration(
        name: "relate",
        abstract: "Declare a key-based relationship between two tables.",
        discussion: """
            A destination row belongs to the origin rows whose key equals its foreign key, as \
            ArcGIS relationship classes work: parks.unit_code -> park_visitors.unit_code. \
            Declaring a relationship again under the same name replaces its definition. \
            It is refused when the data breaks it: a column related to itself, keys of \
            different kinds (TEXT against INTEGER) or a geometry key, an origin key that \
            repeats (unless many-to-many), a destination key that repeats (one-to-one). \
            Destination rows whose key matches no origin row are a warning.
            """,
        arguments: [
            SourceCommand.sourceArgument,
            .option("origin", valueName: "TABLE.COLUMN", help: "The origin table and its key column.",
                    isRequired: true),
            .option("destination", valueName: "TABLE.COLUMN",
                    help: "The destination table and its foreign key column.", isRequired: true),
            .option("cardinality", values: Cardinality.self,
                    help: "How many destination rows an origin row may have, and the other way round.",
                    defaultValue: .oneToMany),
            .option("name", valueName: "NAME", help: "The relationship's name. (default: ORIGIN_DESTINATION, the two table names)"),
            .lockTimeout,
            .json("relationship"),
        ])

    var source: String
    var origin: TableColumn
    var destination: TableColumn
    var cardinality: Cardinality
    var name: String?
    var json: Bool

    public init(_ arguments: ParsedArguments) throws {
        source = try arguments.required("source")
        origin = try arguments.required("origin")
        destination = try arguments.required("destination")
        cardinality = try arguments.required("cardinality")
        name = try arguments.value("name")
        if name?.isEmpty == true {
            throw UsageError("The value '' is invalid for '--name <NAME>': expected a non-empty name")
        }
        json = arguments.flag("json")
    }

    public func run(_ context: CommandContext) throws {
        if PostgreSQLSourceDriver().accepts(source) {
            let outcome = try SourceRelator(address: source).declare(
                origin: (origin.table, origin.column), destination: (destination.table, destination.column),
                cardinality: cardinality, name: name)
            return report(outcome.relationship, changed: outcome.changed, unmatched: outcome.unmatchedDestinationRows, context)
        }
        let connection = try SourceCommand.open(source).connection
        let changesBefore = connection.totalChanges
        let relationship = try Relationship.declare(
            originTable: origin.table, originKey: origin.column,
            destinationTable: destination.table, destinationKey: destination.column,
            cardinality: cardinality, name: name, in: connection)
        let changed = connection.totalChanges != changesBefore
        report(relationship, changed: changed, unmatched: try relationship.unmatchedDestinationRows(in: connection), context)
    }

    private func report(_ relationship: Relationship, changed: Bool, unmatched: Int, _ context: CommandContext) {
        if unmatched > 0 {
            context.warn("\(unmatched) row\(unmatched == 1 ? "" : "s") of \(relationship.destinationTable) "
                + "\(unmatched == 1 ? "has" : "have") a \(relationship.destinationKey) that no "
                + "\(relationship.originTable) row has: they relate to nothing")
        }

        if json {
            var object = relationship.jsonValue
            if case .object(var members) = object {
                members.append(JSONMember("changed", .bool(changed)))
                members.append(JSONMember("unmatched_destination_rows", .int(unmatched)))
                object = .object(members)
            }
            context.print(object.prettyPrinted)
            return
        }
        let text = "\(relationship.name): \(relationship.originTable).\(relationship.originKey) -> "
            + "\(relationship.destinationTable).\(relationship.destinationKey) (\(relationship.cardinality.rawValue))"
        context.info(changed ? "Declared relationship \(text)." : "Relationship \(text) was already declared; nothing changed.")
    }
}

/// A `table.column` value (`parks.unit_code`). The column is what follows the last dot, so a
/// table name may itself hold dots.
struct TableColumn: ExpressibleByArgument, Sendable, Hashable {
    var table: String
    var column: String

    init?(argument: String) {
        guard let dot = argument.lastIndex(of: ".") else { return nil }
        table = String(argument[..<dot])
        column = String(argument[argument.index(after: dot)...])
        if table.isEmpty || column.isEmpty { return nil }
    }

    static var expectedValue: String { "TABLE.COLUMN, such as parks.unit_code" }
}

extension Cardinality: ExpressibleByArgument {}
