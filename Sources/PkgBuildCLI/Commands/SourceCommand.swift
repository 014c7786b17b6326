import Foundation
import Geodatabase

/// `pkgbuild source`: the verbs that work on a source geodatabase (the GeoPackage packages
/// are made from and synced back to).
public struct SourceCommand: CommandGroup {
    /// Every `source` verb; a new one adds its type here.
    public static let subcommands: [any Command.Type] = [
        SourceEnableCommand.self,
        SourceRelateCommand.self,
        SourceStatusCommand.self,
        SourceReplicasCommand.self,
        SourceUnregisterCommand.self,
        SourcePruneCommand.self,
    ]

    public static let configuration = CommandConfiguration(
        name: "source",
        abstract: "Prepare and look at a source geodatabase.",
        discussion: """
            A source is a GeoPackage that packages are extracted from and whose edits are \
            synced back. 'enable' makes it sync-ready, 'relate' declares key-based \
            relationships, 'status' shows its tables, generation and replicas, 'replicas' \
            lists the packages registered at it, 'unregister' forgets one and 'prune' trims a \
            PostgreSQL source's change log.
            """,
        subcommands: subcommands)

    public init() {}

    /// Opens the source GeoPackage at `path`, never creating a file there.
    /// - Throws: ``GeodatabaseError`` (`notAGeoPackage`) naming the path when it is missing, a
    ///   directory, or not a GeoPackage.
    static func open(_ path: String, readOnly: Bool = false, busyTimeout: Double = 5) throws -> GeoPackage {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw GeodatabaseError(.notAGeoPackage, "\(path): no such file")
        }
        guard !isDirectory.boolValue else {
            throw GeodatabaseError(.notAGeoPackage, "\(path) is a directory, not a GeoPackage")
        }
        // GeoPackage opens without SQLITE_OPEN_CREATE, so a file removed meanwhile is not
        // recreated empty either.
        return try GeoPackage(path: path, readOnly: readOnly, busyTimeout: busyTimeout)
    }

    /// Opens the source at `path` for a verb that only reads it. A writable file is still
    /// opened read-write: a read-only connection to a WAL file cannot remove the -wal and -shm
    /// files it creates when it closes.
    /// - Throws: as ``open(_:readOnly:busyTimeout:)``.
    static func openForReading(_ path: String) throws -> GeoPackage {
        try open(path, readOnly: !FileManager.default.isWritableFile(atPath: path))
    }

    /// The positional every `source` verb takes.
    static let sourceArgument = ArgumentDefinition.positional(
        "source", valueName: "SRC.gpkg", help: "The source GeoPackage.")
}
