import Extract
import Geometry
import PkgBuildCLI

/// A command tree for testing the parser alone, independent of the real commands.
struct TestRoot: CommandGroup {
    static let configuration = CommandConfiguration(
        name: "pkgbuild", abstract: "Test root.",
        subcommands: [EchoCommand.self, SourceGroup.self, FailCommand.self],
        version: "9.9.9")
}

/// Echoes what it parsed, one `name=value` line each, so tests see exactly what arrived.
struct EchoCommand: Command {
    static let configuration = CommandConfiguration(
        name: "echo", abstract: "Print the parsed arguments.",
        discussion: "Used by the parser's tests.",
        arguments: [
            .positional("package", valueName: "AREA.pkg", help: "The package."),
            .positional("extra", help: "More values.", isRequired: false, isRepeating: true),
            .option("area", valueName: "bbox", help: "Area of interest: minx,miny,maxx,maxy.",
                    isRequired: true),
            .option("at", valueName: "lon,lat", help: "A point."),
            .option("zoom", valueName: "range", help: "Zoom levels.", defaultValue: "0-12"),
            .option("concurrency", valueName: "n", help: "Parallel downloads.", defaultValue: "4"),
            .repeatingOption("layer", valueName: "name", help: "A layer to include."),
            .repeatingOption("header", valueName: "K: V", help: "An HTTP header."),
            .repeatingOption("set", valueName: "field=value", help: "A value to set."),
            .option("output", short: "o", valueName: "path", help: "Where to write."),
            .flag("dry-run", help: "Plan only."),
            .flag("json", help: "Print JSON."),
        ])

    var package: String
    var extra: [String]
    var area: String
    var at: String?
    var zoom: String
    var concurrency: Int
    var layers: [String]
    var headers: [String]
    var sets: [String]
    var output: String?
    var dryRun: Bool
    var json: Bool

    init(_ arguments: ParsedArguments) throws {
        package = try arguments.required("package")
        extra = try arguments.values("extra")
        area = try arguments.required("area")
        at = try arguments.value("at")
        zoom = try arguments.required("zoom")
        concurrency = try arguments.required("concurrency")
        guard concurrency > 0 else { throw UsageError("--concurrency must be at least 1") }
        layers = try arguments.values("layer")
        headers = try arguments.values("header")
        sets = try arguments.values("set")
        output = try arguments.value("output")
        dryRun = arguments.flag("dry-run")
        json = arguments.flag("json")
    }

    func run(_ context: CommandContext) throws {
        context.print("package=\(package)")
        context.print("extra=\(extra)")
        context.print("area=\(area)")
        context.print("at=\(at ?? "nil")")
        context.print("zoom=\(zoom)")
        context.print("concurrency=\(concurrency)")
        context.print("layers=\(layers)")
        context.print("headers=\(headers)")
        context.print("sets=\(sets)")
        context.print("output=\(output ?? "nil")")
        context.print("dry-run=\(dryRun) json=\(json)")
    }
}

struct SourceGroup: CommandGroup {
    static let configuration = CommandConfiguration(
        name: "source", abstract: "Manage source geodatabases.",
        subcommands: [EnableCommand.self, StatusCommand.self])
}

struct EnableCommand: Command {
    static let configuration = CommandConfiguration(
        name: "enable", abstract: "Make a geodatabase sync-ready.",
        arguments: [
            .positional("source", valueName: "SRC.gpkg", help: "The source geodatabase."),
            .flag("force", short: "f", help: "Enable again even if already enabled."),
        ])
    var source: String
    var force: Bool
    init(_ arguments: ParsedArguments) throws {
        source = try arguments.required("source")
        force = arguments.flag("force")
    }
    func run(_ context: CommandContext) throws {
        context.print("enable \(source) force=\(force)")
    }
}

struct StatusCommand: Command {
    static let configuration = CommandConfiguration(
        name: "status", abstract: "Show a source's sync state.",
        arguments: [.positional("source", valueName: "SRC", help: "The source.")])
    var source: String
    init(_ arguments: ParsedArguments) throws { source = try arguments.required("source") }
    func run(_ context: CommandContext) throws { context.print("status \(source)") }
}

struct DomainError: Error, CustomStringConvertible {
    var description: String { "cannot open 'missing.gpkg': no such file" }
}

struct ConflictError: Error, CustomStringConvertible, ExitCodeProviding {
    var description: String { "3 conflicts left unresolved" }
    var exitCode: ExitCode { .conflicts }
}

/// Fails in the way `--kind` asks, to test how errors become exit codes.
struct FailCommand: Command {
    static let configuration = CommandConfiguration(
        name: "fail", abstract: "Fail on purpose.",
        arguments: [.option("kind", valueName: "kind", help: "How to fail.", isRequired: true)])
    var kind: String
    init(_ arguments: ParsedArguments) throws { kind = try arguments.required("kind") }
    func run(_ context: CommandContext) throws {
        switch kind {
        case "domain": throw DomainError()
        case "conflicts": throw ConflictError()
        case "silent":
            context.print("report")
            throw ExitCode.conflicts
        case "cancelled":
            try context.checkCancellation()
            context.print("not cancelled")
        case "swift-cancelled": throw Swift.CancellationError()
        case "extract-cancelled": throw ExtractError(.cancelled, "cancelled; the work so far is kept")
        default: context.print("ok")
        }
    }
}
