import Foundation
import Geodatabase
import SQLite

/// What planning reads of a GeoPackage source, and the one place where it speaks SQLite:
/// the schema, whether the source is sync-enabled and each layer's `CREATE TABLE` text (which
/// the package copies verbatim). A `--where` filter is parsed in the grammar against the
/// layer's columns, so it needs nothing of the source here.
/// The planner asks these questions only, so a source of another kind can answer them.
///
/// - Important: Like its ``Connection``, not thread-safe: it lives for one planning.
struct GeoPackageSourceCatalog {
    let path: String
    let schema: GeoPackageSchema
    private let connection: Connection

    /// Opens the source read-only and reads its schema.
    /// - Throws: `ExtractError(.source)` when it is not a GeoPackage this user can read.
    init(path: String) throws {
        self.path = path
        do {
            connection = try Connection(path: path, mode: .readOnly)
            schema = try GeoPackageSchema.read(from: connection)
        } catch let error as GeodatabaseError {
            throw ExtractError(.source, "source \(path): \(error.message)")
        } catch let error as SQLiteError where error.isFileProblem {
            throw ExtractError(.source, "source \(path) is not a GeoPackage: \(error.message)")
        } catch let error as SQLiteError where error.isReadOnly {
            // A GeoPackage this user cannot read without write access (see Connection's read-only open).
            throw ExtractError(.source, "source \(path): \(error.message)")
        } catch {
            throw ExtractError(.source, "source \(path) is not a GeoPackage: \(error)")
        }
    }

    /// Whether the source records its changes (`source enable`), so that a replica can be
    /// registered with it.
    func isSyncEnabled() throws -> Bool {
        try SourceGeodatabase(connection: connection).isEnabled()
    }

    /// The statement that created the layer's table, as the source stores it.
    /// - Throws: `ExtractError(.layer)` when `gpkg_contents` names a table that does not exist.
    func createTableSQL(of layer: LayerInfo) throws -> String {
        guard let sql = try connection.scalar(
            "SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?", [.text(layer.name)])?.stringValue else {
            throw ExtractError(.layer, "layer \(layer.name) is registered in gpkg_contents but has no table")
        }
        return sql
    }
}
