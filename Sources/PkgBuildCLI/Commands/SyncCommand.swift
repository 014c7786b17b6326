import Foundation
import Geometry
import PackageFormat
import Sync

/// `pkgbuild sync`: local edits go up, source changes come down, conflicts are found per column.
struct SyncCommand: Command {
    static let configuration = CommandConfiguration(
        name: "sync",
        abstract: "Sync a package with its source: upload local edits, download source changes.",
        discussion: """
            Each local change is compared column by column with the source's row and the row's \
            base. Conflicts are settled by --on-conflict (fail: change nothing and exit 2), and \
            always recorded in the package; see 'pkgbuild conflicts' and 'pkgbuild resolve'. \
            Ctrl-C stops it at the next safe point (exit 130): before the source takes the \
            upload, with nothing applied on either side; after, once the sync is complete. \
            Safe to re-run after an interruption.
            """,
        arguments: [
            .package,
            .option("source", valueName: "SRC.gpkg", help: "The source GeoPackage. (default: the one the manifest names)"),
            .option("direction", values: SyncDirection.self, help: "Which way changes travel.",
                    defaultValue: .bidirectional),
            .option("on-conflict", values: ConflictPolicy.self, help: "How conflicts are settled.",
                    defaultValue: .fail),
            .flag("dry-run", help: "Report what would happen; change nothing on either side."),
            .flag("reattach", help: """
                Give a stranded package (a stale copy, a restored source, an unregistered replica) a new replica at \
                the source's current state; every pending edit and every row where package and source differ \
                becomes a conflict to resolve.
                """),
            .lockTimeout,
            .json("report"),
        ])

    let package: String
    let options: SyncOptions
    let json: Bool

    init(_ arguments: ParsedArguments) throws {
        package = try arguments.required("package", as: String.self)
        options = SyncOptions(source: try arguments.value("source", as: String.self),
                              direction: try arguments.required("direction", as: SyncDirection.self),
                              policy: try arguments.required("on-conflict", as: ConflictPolicy.self),
                              dryRun: arguments.flag("dry-run"), reattach: arguments.flag("reattach"),
                              busyTimeout: try CommandRunner.lockTimeout(arguments) ?? 60)
        json = arguments.flag("json")
    }

    func run(_ context: CommandContext) throws {
        context.detail("Package: \(package); source: \(options.source ?? "the one its manifest names"); "
                       + "direction: \(options.direction.rawValue); on conflict: \(options.policy.rawValue)"
                       + (options.dryRun ? "; dry run" : "") + (options.reattach ? "; reattach" : ""))
        let progress = StageProgress(context: context)
        defer { progress.finish() }
        var options = self.options
        options.progress = { progress.report($0.rawValue, done: $1, total: $2) }
        // Ctrl-C stops the sync at its next safe point: before the source commits, with nothing
        // applied; after, at the end.
        options.isCancelled = { context.isCancelled }
        let report: SyncReport
        do {
            report = try SyncSession(package: URL(fileURLWithPath: package), options: options).run()
        } catch is Swift.CancellationError {
            throw CancellationError("sync interrupted: nothing was applied on either side; run it again to sync")
        }
        progress.finish()
        if json {
            context.print(SyncJSON.report(report).prettyPrinted)
        } else if report.hasUnresolved {
            // Conflicts left open are why the run failed: shown even under --quiet.
            context.write(SyncJSON.text(report))
        } else {
            context.info(text: SyncJSON.text(report))
        }
        if context.isCancelled {
            throw CancellationError("sync interrupted after the source had taken the upload, so it ran to its end (reported above)")
        }
        if report.hasUnresolved { throw ExitCode.conflicts }
    }
}

/// `pkgbuild conflicts`: the open conflicts of a package.
struct ConflictsCommand: Command {
    static let configuration = CommandConfiguration(
        name: "conflicts",
        abstract: "List a package's open conflicts and the decisions recorded for them.",
        arguments: [
            .package,
            .json("conflicts"),
        ])

    let package: String
    let json: Bool

    init(_ arguments: ParsedArguments) throws {
        package = try arguments.required("package", as: String.self)
        json = arguments.flag("json")
    }

    func run(_ context: CommandContext) throws {
        let entries = try PackageConflicts.list(package: URL(fileURLWithPath: package))
        if json {
            context.print(JSONValue.array(entries.map { SyncJSON.conflict($0.conflict, decision: $0.decision) }).prettyPrinted)
        } else if entries.isEmpty {
            context.print("No open conflicts.")
        } else {
            context.write(SyncJSON.table(entries.map { ($0.conflict, $0.decision) }))
        }
    }
}

/// `pkgbuild resolve`: records which side the next sync takes for open conflicts.
struct ResolveCommand: Command {
    static let configuration = CommandConfiguration(
        name: "resolve",
        abstract: "Record decisions for open conflicts; the next sync applies them.",
        arguments: [
            .package,
            .flag("all", help: "Every open conflict."),
            .option("id", valueName: "GLOBALID", help: "The conflicts of one row: its globalid (any case, braces optional)."),
            .option("column", valueName: "NAME", help: "Only the conflict in this column of the row."),
            .option("take", values: ConflictSide.self, help: "The side whose value wins.", isRequired: true),
            .lockTimeout,
            .json("decisions"),
        ])

    let package: String
    let globalID: String?
    let column: String?
    let take: ConflictSide
    let json: Bool

    init(_ arguments: ParsedArguments) throws {
        package = try arguments.required("package", as: String.self)
        let all = arguments.flag("all")
        globalID = try arguments.value("id", as: String.self)
        column = try arguments.value("column", as: String.self)
        if all == (globalID != nil) { throw UsageError("give either --all or --id GLOBALID") }
        if column != nil && globalID == nil { throw UsageError("--column needs --id") }
        take = try arguments.required("take", as: ConflictSide.self)
        json = arguments.flag("json")
    }

    func run(_ context: CommandContext) throws {
        let count = try PackageConflicts.resolve(package: URL(fileURLWithPath: package), globalID: globalID,
                                                 column: column, take: take)
        if json {
            context.print(JSONValue.object([
                "package": .string(package), "globalid": .string(globalID), "column": .string(column),
                "take": .string(take.rawValue), "conflicts": .int(count),
            ]).prettyPrinted)
            return
        }
        context.info("\(count) conflict\(count == 1 ? "" : "s") will take the \(take.rawValue)'s value at the next sync.")
    }
}

extension SyncDirection: ExpressibleByArgument {}
extension ConflictPolicy: ExpressibleByArgument {}
extension ConflictSide: ExpressibleByArgument {}
