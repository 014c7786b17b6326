/// Geodatabase: GeoPackage schema, feature tables, the ST_* functions GDAL's triggers call,
/// relationships, constraints, change tracking and replica metadata.
