#!/usr/bin/env bash
# Builds testdata/demo/alaska_source.gpkg, the demo source geodatabase, from the real
# Natural Earth data in testdata/ (see testdata/README.md for what is real and what is not).
# Needs GDAL's ogr2ogr and sqlite3. Run from anywhere: testdata/demo/build-source.sh
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
data=$(cd "$here/.." && pwd)
out="$here/alaska_source.gpkg"
tmp="$here/alaska_source.partial.gpkg"
rm -f "$tmp"

# parks (origin of the relationship): the 13 Alaska units of the NPS parks layer, real geometry.
ogr2ogr -f GPKG "$tmp" "$data/ne_parks.gpkg" parks -nln parks \
    -where "nps_region LIKE '%Alaska%'" -nlt MULTIPOLYGON

# airports: the Alaska airports (gps_code starting with PA) of Natural Earth, real points.
ogr2ogr -f GPKG -update "$tmp" "$data/ne_10m_airports.geojson" -nln airports -nlt POINT \
    -where "gps_code LIKE 'PA%'" -select name,iata_code,gps_code,type,scalerank

# park_visitors (destination, keyed by unit_code): an attribute table of made-up buckets,
# with the bucket constrained through GeoPackage data column constraints (an enum).
sqlite3 "$tmp" <<'SQL'
CREATE TABLE park_visitors (
    fid INTEGER PRIMARY KEY AUTOINCREMENT,
    unit_code TEXT NOT NULL UNIQUE,
    annual_visitors TEXT NOT NULL,
    survey_year INTEGER
);
INSERT INTO gpkg_contents (table_name, data_type, identifier, description, last_change)
VALUES ('park_visitors', 'attributes', 'park_visitors',
        'Annual visitors per park unit (bucketed; made-up demo figures)',
        strftime('%Y-%m-%dT%H:%M:%fZ', '2026-01-01'));
INSERT INTO park_visitors (unit_code, annual_visitors, survey_year) VALUES
    ('DENA', '100,000+', 2025),
    ('KEFJ', '100,000+', 2025),
    ('GLBA', '100,000+', 2025),
    ('KATM', '50,000-100,000', 2025),
    ('WRST', '50,000-100,000', 2025),
    ('LACL', '10,000-50,000', 2025),
    ('KOVA', '10,000-50,000', 2025),
    ('GAAR', '1,000-10,000', 2025),
    ('YUCH', '1,000-10,000', 2025),
    ('NOAT', '1,000-10,000', 2025),
    ('BELA', '1,000-10,000', 2025),
    ('CAKR', '1,000-10,000', 2025),
    ('ANIA', '0-1,000', 2025);

-- GeoPackage schema extension: data columns and their constraints (DDL of the spec, 1.3).
CREATE TABLE gpkg_data_columns (
    table_name TEXT NOT NULL,
    column_name TEXT NOT NULL,
    name TEXT,
    title TEXT,
    description TEXT,
    mime_type TEXT,
    constraint_name TEXT,
    CONSTRAINT pk_gdc PRIMARY KEY (table_name, column_name),
    CONSTRAINT gdc_tn UNIQUE (table_name, name)
);
CREATE TABLE gpkg_data_column_constraints (
    constraint_name TEXT NOT NULL,
    constraint_type TEXT NOT NULL,
    value TEXT,
    min NUMERIC,
    min_is_inclusive BOOLEAN,
    max NUMERIC,
    max_is_inclusive BOOLEAN,
    description TEXT,
    CONSTRAINT gdcc_ntv UNIQUE (constraint_name, constraint_type, value)
);
INSERT INTO gpkg_extensions (table_name, column_name, extension_name, definition, scope) VALUES
    ('gpkg_data_columns', NULL, 'gpkg_schema', 'http://www.geopackage.org/spec/#extension_schema', 'read-write'),
    ('gpkg_data_column_constraints', NULL, 'gpkg_schema', 'http://www.geopackage.org/spec/#extension_schema', 'read-write');
INSERT INTO gpkg_data_column_constraints (constraint_name, constraint_type, value, description) VALUES
    ('visitor_bucket', 'enum', '0-1,000', 'fewer than 1,000 visitors a year'),
    ('visitor_bucket', 'enum', '1,000-10,000', '1,000 to 10,000 visitors a year'),
    ('visitor_bucket', 'enum', '10,000-50,000', '10,000 to 50,000 visitors a year'),
    ('visitor_bucket', 'enum', '50,000-100,000', '50,000 to 100,000 visitors a year'),
    ('visitor_bucket', 'enum', '100,000+', 'more than 100,000 visitors a year');
INSERT INTO gpkg_data_column_constraints
    (constraint_name, constraint_type, value, min, min_is_inclusive, max, max_is_inclusive, description)
VALUES ('survey_year', 'range', NULL, 1900, 1, 2100, 1, 'year the figure was surveyed');
INSERT INTO gpkg_data_columns (table_name, column_name, name, title, description, constraint_name) VALUES
    ('park_visitors', 'annual_visitors', 'annual_visitors', 'Annual visitors', 'Bucketed annual visitor count', 'visitor_bucket'),
    ('park_visitors', 'survey_year', 'survey_year', 'Survey year', NULL, 'survey_year');
SQL

# Sync-ready: globalids, change log, replica registry, and the parks -> park_visitors relationship.
if [[ -n "${PKGBUILD:-}" ]]; then
    # --no-wal: a file committed to the repository and opened read-only by tests must not be WAL.
    "$PKGBUILD" source enable --no-wal "$tmp"
    "$PKGBUILD" source relate "$tmp" --origin parks.unit_code --destination park_visitors.unit_code \
        --cardinality one-to-one --name parks_visitors
fi
mv -f "$tmp" "$out"
echo "wrote $out" >&2
