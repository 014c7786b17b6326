/// Clipped layers in the kit: the package's triggers refuse a geometry edit, an insert or a
/// delete of a clipped layer whoever writes it; the kit says so before it checks or writes
/// anything, in its own words.
import Geodatabase
import SQLite

extension OfflinePackage {
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
