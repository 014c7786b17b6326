/// Clipped layers in the kit: the package's triggers refuse a geometry edit, an insert or a
/// delete of a clipped layer whoever writes it; the kit says so before it checks or writes
/// anything, in its own words.
import Geodatabase
import SQLite

/// An edit a clipped layer refuses (its attribute edits sync, these cannot).
public enum ClippedLayerEdit: String, Sendable, Hashable {
    case geometry = "a geometry edit"
    case insert = "an insert"
    case delete = "a delete"
}

extension OfflinePackage {
    /// Throws `invalidArgument` with the reason when `layer` was clipped at build time, so a
    /// caller can refuse the edit before it reads or checks any of its values.
    /// - Throws: ``PackageError``: `unknownLayer`, `invalidArgument`.
    public func refuseIfClipped(_ edit: ClippedLayerEdit, in layer: String) throws(PackageError) {
        try locked { connection in try refuseIfClipped(try self.layer(named: layer), edit.rawValue, connection: connection) }
    }

    /// Throws `invalidArgument` with the reason when `layer` was clipped at build time.
    /// - Parameter what: the edit, as a phrase ("a geometry edit", "an insert", "a delete").
    func refuseIfClipped(_ layer: LayerInfo, _ what: String, connection: Connection) throws {
        let trigger = "pkgbuild_clip_\(layer.name)_insert"
        guard try connection.scalar("SELECT 1 FROM sqlite_master WHERE type = 'trigger' AND name = ?", [.text(trigger)]) != nil else {
            return
        }
        throw PackageError(.invalidArgument, """
            \(what) in layer '\(layer.name)' is refused: \(PackageChangeTracking.clippedLayerMessage(layer.name)) \
            (its attributes can be edited)
            """)
    }
}
