import Foundation
import Geometry
import SQLite
import Sync

/// `pkgbuild changes`: the pending local edits of a package.
struct ChangesCommand: Command {
    static let configuration = CommandConfiguration(
        name: "changes",
        abstract: "List a package's pending local edits; optionally write them as a changeset.",
        discussion: """
            --changeset writes the edits as a SQLite session changeset (rows keyed by the \
            package's fids), which Mergin Maps' geodiff reads and applies. Under --json a \
            geometry's old and new values are summarised (type, parts, vertices, envelope); \
            --full-geometry adds their WKT.
            """,
        arguments: [
            .package,
            .json("edits"),
            .fullGeometry,
            .option("changeset", valueName: "FILE", help: "Also write the edits as a SQLite session changeset."),
        ])

    let package: String
    let json: Bool
    let changeset: String?
    let fullGeometry: Bool

    init(_ arguments: ParsedArguments) throws {
        package = try arguments.required("package", as: String.self)
        json = arguments.flag("json")
        fullGeometry = arguments.flag("full-geometry")
        changeset = try arguments.value("changeset", as: String.self)
    }

    func run(_ context: CommandContext) throws {
        let (tables, edits) = try PendingEdits.list(package: URL(fileURLWithPath: package))
        if let changeset {
            let bytes = SessionChangeset.encode(edits, tables: tables)
            do { try OutputFile.write(Data(bytes), to: changeset) } catch {
                throw SyncError(.invalidArgument, error.message)
            }
        }
        let geometryColumns = Dictionary(tables.map { ($0.name, $0.geometryColumn) }, uniquingKeysWith: { a, _ in a })
        func value(_ v: SQLiteValue?, table: String, column: String) -> JSONValue {
            guard let v else { return .null }
            switch v {
            case .null: return .null
            case .integer(let i): return .int(i)
            case .real(let d): return .number(d)
            case .text(let s): return .string(s)
            case .textBytes: return .string(v.displayText ?? "")
            case .blob(let bytes):
                if geometryColumns[table] == column, let g = try? GeoPackageBinary(bytes: bytes) {
                    return FeatureOutput.geometryJSON(g.geometry, full: fullGeometry)
                }
                return .string(v.description)
            }
        }
        if json {
            context.print(JSONValue.array(edits.map { e in
                .object(["table": .string(e.table), "globalid": .string(e.globalID),
                         "fid": value(e.key, table: e.table, column: ""), "operation": .string(e.operation.rawValue),
                         "changes": .array(e.changes.map { c in
                             .object(["column": .string(c.column), "old": value(c.old, table: e.table, column: c.column),
                                      "new": value(c.new, table: e.table, column: c.column)])
                         })])
            }).prettyPrinted)
            return
        }
        guard !edits.isEmpty else {
            context.print("No pending edits.")
            return
        }
        var table = TextTable(columns: [.init("TABLE"), .init("GLOBALID"), .init("FID", alignment: .right),
                                        .init("OPERATION"), .init("COLUMNS")])
        for e in edits {
            let columns = e.operation == .update ? e.changes.map(\.column).joined(separator: ", ") : "-"
            table.append([e.table, e.globalID, e.key.description, e.operation.rawValue, columns])
        }
        context.write(table.rendered)
    }
}
