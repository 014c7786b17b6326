/// TilePackage: tile math, MBTiles read/write, tile sources (file, HTTP).
/// Filled by the basemap tiles issue.
