/// The files of a package directory (`AREA.pkg`), by name; the manifest's is
/// ``PackageManifest/fileName``.
public enum PackageLayout {
    /// The feature layers and the package's own `pkgbuild_*` tables: the authority on what
    /// the package is.
    public static let dataFileName = "data.gpkg"
    /// The basemap tiles.
    public static let basemapFileName = "basemap.mbtiles"

    /// Every name a package directory holds, the databases' journals included.
    public static let fileNames: Set<String> = {
        var names: Set<String> = [PackageManifest.fileName]
        for database in [dataFileName, basemapFileName] {
            for suffix in ["", "-journal", "-wal", "-shm"] { names.insert(database + suffix) }
        }
        return names
    }()
}
