import Geometry
import PostgreSQLSource
import SourceDrivers

/// `pkgbuild source prune SRC [--expire-after AGE]`: deletes the change-log rows of a PostgreSQL
/// database that every replica has passed, after retiring (with `--expire-after`) the replicas
/// unused for longer than AGE that would otherwise hold it.
struct SourcePruneCommand: Command {
    static let configuration = CommandConfiguration(
        name: "prune",
        abstract: "Delete the change-log rows of a PostgreSQL source that every replica has passed.",
        discussion: """
            The change log is shared by every tracked schema of the database: rows of \
            transactions below the oldest position of any registered replica (active or \
            pending, any schema) are deleted, in one transaction; a transaction still open \
            keeps its rows. With --expire-after, replicas whose last sync (or registration, \
            when they never synced) is older than AGE, in any schema, stop holding the log: \
            they are unregistered, their packages' next sync is refused with the reason, and \
            'pkgbuild sync PKG --reattach' brings each back with its pending edits. Nothing \
            prunes automatically; run this from cron, say. A GeoPackage source keeps one \
            log entry a row and needs no pruning.
            """,
        arguments: [
            .positional("source", valueName: "SRC",
                        help: "The PostgreSQL source: PG:\"dbname=... schemas=...\" or postgresql://...; the log is the whole database's."),
            .option("expire-after", valueName: "AGE",
                    help: "Unregister the replicas unused for longer than AGE whose position the prune passes: "
                        + "a whole number and a unit, s, m, h, d or w (30d)."),
            .json("result"),
        ])

    let source: String
    let expireAfterSeconds: Int?
    let json: Bool

    init(_ arguments: ParsedArguments) throws {
        source = try arguments.required("source", as: String.self)
        json = arguments.flag("json")
        if let age = try arguments.value("expire-after", as: String.self) {
            guard let seconds = LogPruning.seconds(inAge: age) else {
                throw UsageError("The value '\(age)' is invalid for '--expire-after <AGE>': expected a whole number above 0 "
                    + "and a unit, s, m, h, d or w (30d)")
            }
            expireAfterSeconds = seconds
        } else {
            expireAfterSeconds = nil
        }
    }

    func run(_ context: CommandContext) throws {
        guard SourceCommand.isPostgreSQL(source) else {
            throw SourceError(.unusable, "\(source): 'source prune' works on a PostgreSQL source; a GeoPackage source "
                + "keeps one change-log entry a row and needs no pruning")
        }
        let outcome = try PostgreSQLSourceAdministration(source).prune(expireAfterSeconds: expireAfterSeconds)
        if json {
            context.print(jsonValue(outcome).prettyPrinted)
        } else {
            context.info(text(outcome))
        }
    }

    func jsonValue(_ outcome: LogPruning.Outcome) -> JSONValue {
        func hold(_ h: LogPruning.ReplicaHold) -> JSONValue {
            .object(["id": .string(h.id), "schema": .string(h.schema), "name": .string(h.name), "generation": .int(h.generation),
                     "last_used_at": .string(h.lastUsed)])
        }
        let held: JSONValue = outcome.heldBy.map(hold) ?? .null
        let expired: [JSONValue] = outcome.expired.map(hold)
        let shown: JSONValue = .string(SourceCommand.shown(source))
        let deleted: JSONValue = .int(outcome.deletedRows), remaining: JSONValue = .int(outcome.remainingRows)
        return .object([
            "source": shown, "pruned_before": .int(outcome.prunedBefore), "previously_pruned_before": .int(outcome.previous),
            "deleted_rows": deleted, "remaining_rows": remaining, "held_by": held, "expired": .array(expired),
        ])
    }

    func text(_ outcome: LogPruning.Outcome) -> String {
        var lines = ["Pruned the change log of \(SourceCommand.shown(source)) before generation \(outcome.prunedBefore): "
            + "\(outcome.deletedRows) rows deleted, \(outcome.remainingRows) kept."]
        if let held = outcome.heldBy {
            lines.append("The oldest position is replica \(held.id)\(held.name.map { " (\($0))" } ?? "") of schema \(held.schema), "
                + "at generation \(held.generation), last used \(held.lastUsed).")
        }
        for replica in outcome.expired {
            lines.append("Expired replica \(replica.id)\(replica.name.map { " (\($0))" } ?? "") of schema \(replica.schema), "
                + "unused since \(replica.lastUsed): its package comes back with 'pkgbuild sync PKG --reattach'.")
        }
        return lines.joined(separator: "\n")
    }
}
