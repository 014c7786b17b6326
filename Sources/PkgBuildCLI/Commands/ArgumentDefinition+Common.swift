import Geometry
import TilePackage

extension ArgumentDefinition {
    /// `<AREA.pkg>`: the package a command works on, the first positional of every package verb.
    static let package = ArgumentDefinition.positional(
        "package", valueName: "AREA.pkg", help: "The package directory.")

    /// `--area`, as `tiles`, `create` and `estimate` take it.
    static let area = ArgumentDefinition.option(
        "area", valueName: "BBOX|WKT|@FILE.geojson",
        help: "The area of interest: minx,miny,maxx,maxy (west > east crosses the antimeridian), WKT "
            + "polygons, or a GeoJSON file whose polygons are united. An invalid polygon is made valid, with a warning.",
        isRequired: true)

    /// `--area-crs`, the CRS `--area` is given in.
    static let areaCRS = ArgumentDefinition.option(
        "area-crs", valueName: "CRS", help: "The CRS of --area (EPSG:n, WKT or PROJ).", defaultValue: "EPSG:4326")

    /// `--concurrency`, for an HTTP tile source.
    static let concurrency = ArgumentDefinition.option(
        "concurrency", valueName: "N", help: "HTTP requests in flight at once, for a tile URL template.",
        defaultValue: "8")

    /// `--max-tiles`, the cap on a basemap's tiles (`TileCoverage.defaultMaxTiles`).
    static let maxTiles = ArgumentDefinition.option(
        "max-tiles", valueName: "N", help: "Refuse to start when the basemap needs more tiles than N.",
        defaultValue: String(TileCoverage.defaultMaxTiles))

    /// `--skip-failed`, as `tiles` and `create` take it: one behaviour for one tile pipeline.
    static let skipFailed = ArgumentDefinition.flag(
        "skip-failed", help: "Finish the basemap without the tiles whose retries ran out, listing them, "
            + "instead of failing (a re-run would fetch them).")

    /// `--lock-timeout`, on every command that writes a database another process may hold; read
    /// by `CommandRunner` for every connection the command opens (`LockWait`).
    static let lockTimeout = ArgumentDefinition.option(
        "lock-timeout", valueName: "SECONDS",
        help: "How long to wait for a database another process holds (a sync, an editor) before giving up.",
        defaultValue: "60")

    /// `--json`, worded the same everywhere: "Print the <what> as JSON; errors too, on stderr."
    static func json(_ what: String) -> ArgumentDefinition {
        .flag("json", help: "Print the \(what) as JSON; errors too, on stderr.")
    }
}
