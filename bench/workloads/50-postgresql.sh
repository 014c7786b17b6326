# Workloads against a PostgreSQL/PostGIS source, in a throwaway cluster of their own
# (scripts/pg-test-cluster: PostgreSQL 15 + PostGIS 3, fsync off, 32 MB shared buffers; the
# server shares the machine's cores with the contenders, so its CPU time is reported beside
# each).
#   create: a 1,000,000-feature table of the package workload's shape (80% points, 20% real
#     polygons) loaded by ogr2ogr, cut for the same box, clipped, 4326 -> 3857: pkgbuild create
#     against ogr2ogr -f GPKG … PG:… -spat … -clipsrc spat_extent -t_srs EPSG:3857.
#   sync: the sync workload's sizes (200,000 and 1,000,000 features) in PostGIS, the same
#     package and source edits (the source's made by psql), package-wins.
#   concurrency: 16 overlapping packages of that table, 1,000 edits each, synced at once.
# Sourced by bench/run (BIN, WORK, RUNS, VENV_PY, measure); needs bench/workloads/30-*.sh's inputs and helpers.

pg_dir=$WORK/pg-cluster
scripts/pg-test-cluster stop "$pg_dir" >/dev/null 2>&1 || true
if ! scripts/pg-test-cluster start "$pg_dir" >/dev/null; then
    echo "bench: no PostgreSQL cluster (scripts/bootstrap installs postgresql-15-postgis-3): skipping its workloads" >&2
    return 0
fi
trap 'scripts/pg-test-cluster stop "$pg_dir" >/dev/null 2>&1 || true' EXIT
# shellcheck disable=SC1091
source "$pg_dir/env"
pg_base=${PKGBUILD_TEST_PG/ dbname=pkgbuild_test/}   # the conninfo without its database
pg_psql() { /usr/lib/postgresql/15/bin/psql -X -q -At -v ON_ERROR_STOP=1 -d "$pg_base dbname=$1" -c "$2"; }
pg_postmaster=$(head -1 "$pg_dir/data/postmaster.pid")

# The server's CPU seconds so far: the postmaster's own and those of the backends it reaped.
pg_cpu() {
    awk -v hz="$(getconf CLK_TCK)" '{ printf "%.2f", ($14 + $15 + $16 + $17) / hz }' "/proc/$pg_postmaster/stat"
}
# measure, then a row with the server's CPU seconds per run of that contender.
pg_measure() {
    local workload=$1 contender=$2 before after
    before=$(pg_cpu)
    measure "$@"
    after=$(pg_cpu)
    ROWS+=("$workload|  server CPU s per run|$(awk -v a="$after" -v b="$before" -v r="$RUNS" 'BEGIN { printf "%.2f", (a - b) / r }')||")
}

# create from 1M features.
pg_features=${BENCH_PG_FEATURES:-1000000}
pg_src=$(package_source "$pg_features")
pg_psql postgres "CREATE DATABASE features"
echo "bench: loading $pg_src into PostGIS" >&2
ogr2ogr -f PostgreSQL "PG:$pg_base dbname=features" "$pg_src" places areas -lco FID=fid -lco GEOMETRY_NAME=geom \
    -lco SPATIAL_INDEX=GIST --config PG_USE_COPY YES -gt 100000
pg_psql features "VACUUM ANALYZE"
pg_create_out=$WORK/pg_create_out
pg_measure "pg create ${pg_features} (clip, 3857)" "ogr2ogr PG: -clipsrc -t_srs" "$RUNS" --floor \
    --prepare "rm -f '$pg_create_out.gpkg'" -- ogr2ogr -f GPKG "$pg_create_out.gpkg" "PG:$pg_base dbname=features" places areas \
    -spat "${package_bbox[@]}" -clipsrc spat_extent -t_srs EPSG:3857 -nlt PROMOTE_TO_MULTI
pg_measure "pg create ${pg_features} (clip, 3857)" "pkgbuild create" "$RUNS" \
    --prepare "rm -rf '$pg_create_out.pkg' '$pg_create_out.pkg.partial'" -- "$BIN" create --area="$package_area" \
    --features "PG:$pg_base dbname=features" --clip --crs EPSG:3857 --no-register --output "$pg_create_out.pkg"

# sync: the sync workload's sizes (SYNC_SIZES) in PostGIS, the same package edits (GDAL's
# SQL) and source edits (psql), package-wins; PG_SYNC_RUNS runs each (default RUNS).
pg_source_edits() {
    pg_psql "$1" "UPDATE features SET value = -fid WHERE fid % 20 = 1;
        UPDATE features SET kind = 'office' WHERE fid % 100 IN (11, 33);
        DELETE FROM features WHERE fid % 100 = 50;
        INSERT INTO features (geom, name, kind, value) SELECT ST_SetSRID(ST_MakePoint(fid % 200 - 100, fid % 100 - 50), 4326),
            'office ' || fid, 'office', fid FROM features WHERE fid % 50 = 7 AND fid <= $SYNC_FEATURES"
}
pg_prepare_sync() {
    pg_psql postgres "DROP DATABASE IF EXISTS syncrun" && pg_psql postgres "CREATE DATABASE syncrun TEMPLATE $pg_sync_base"
    rm -rf "$WORK/pg-sync-run.pkg" && cp -r "$pg_sync_package" "$WORK/pg-sync-run.pkg"
    sync_edit_package "$WORK/pg-sync-run.pkg/data.gpkg"
    pg_source_edits syncrun
}
# The sync inputs of size $1 loaded into database syncbase_$1, sync-enabled (once).
pg_load_sync_base() {
    pg_psql postgres "SELECT 1 FROM pg_database WHERE datname = 'syncbase_$1'" | grep -q 1 && return 0
    sync_inputs "$1"
    pg_psql postgres "CREATE DATABASE syncbase_$1"
    ogr2ogr -f PostgreSQL "PG:$pg_base dbname=syncbase_$1" "$sync_plain" features -lco FID=fid -lco GEOMETRY_NAME=geom \
        -lco SPATIAL_INDEX=GIST --config PG_USE_COPY YES -gt 100000
    "$BIN" source enable "PG:$pg_base dbname=syncbase_$1" >/dev/null
}
for pg_sync_size in $SYNC_SIZES; do
    pg_load_sync_base "$pg_sync_size"
    sync_inputs "$pg_sync_size"   # SYNC_FEATURES, which the edits use
    pg_sync_base=syncbase_$pg_sync_size
    pg_sync_package=$WORK/pg-sync-$pg_sync_size.pkg
    rm -rf "$pg_sync_package"
    "$BIN" create --area=-180,-90,180,90 --features "PG:$pg_base dbname=$pg_sync_base" --output "$pg_sync_package" >/dev/null
    pg_measure "pg $(sync_workload_label "$pg_sync_size")" \
        "pkgbuild sync" "${PG_SYNC_RUNS:-$RUNS}" --prepare pg_prepare_sync -- \
        "$BIN" sync "$WORK/pg-sync-run.pkg" --source "PG:$pg_base dbname=syncrun" --on-conflict package-wins
done

# 16 concurrent syncs of overlapping packages (strips 40 degrees wide, 20 apart) of the
# 200,000-feature table.
pg_crews=16
pg_crew_base=syncbase_200000
pg_load_sync_base 200000
for ((crew = 0; crew < pg_crews; crew++)); do
    rm -rf "$WORK/pg-crew$crew.pkg"
    west=$((-180 + crew * 20 % 320))
    "$BIN" create --area="$west,-90,$((west + 40)),90" --features "PG:$pg_base dbname=$pg_crew_base" \
        --output "$WORK/pg-crew$crew.pkg" >/dev/null
done
pg_prepare_crews() {
    pg_psql postgres "DROP DATABASE IF EXISTS syncrun" && pg_psql postgres "CREATE DATABASE syncrun TEMPLATE $pg_crew_base"
    local crew
    for ((crew = 0; crew < pg_crews; crew++)); do
        rm -rf "$WORK/pg-crew$crew-run.pkg" && cp -r "$WORK/pg-crew$crew.pkg" "$WORK/pg-crew$crew-run.pkg"
        ogrinfo -q "$WORK/pg-crew$crew-run.pkg/data.gpkg" -sql \
            "UPDATE features SET kind = 'crew $crew' WHERE fid IN (SELECT fid FROM features ORDER BY fid LIMIT 1000)"
    done
}
cat >"$WORK/pg-crews.sh" <<SH
#!/usr/bin/env bash
# 16 syncs at once; each one's wall time into pg-crews.times.
rm -f "$WORK/pg-crews.times"
for ((crew = 0; crew < $pg_crews; crew++)); do
    ( start=\$(date +%s%N); "$BIN" sync "$WORK/pg-crew\$crew-run.pkg" --source "PG:$pg_base dbname=syncrun" \
        --on-conflict package-wins >/dev/null || echo "crew \$crew failed" >&2
      echo \$(( (\$(date +%s%N) - start) / 1000000 )) >>"$WORK/pg-crews.times" ) &
done
wait
SH
chmod +x "$WORK/pg-crews.sh"
pg_measure "pg 16 concurrent syncs" "pkgbuild sync x16" "$RUNS" --prepare pg_prepare_crews -- "$WORK/pg-crews.sh"
pg_slowest=$(sort -n "$WORK/pg-crews.times" | tail -1)
pg_wall=${ROWS[-2]}; pg_wall=$(cut -d'|' -f3 <<<"$pg_wall")
ROWS+=("pg 16 concurrent syncs|  packages/s; slowest s (last)|$(awk -v w="$pg_wall" -v n=$pg_crews 'BEGIN { printf "%.2f", n / w }')|$(awk -v s="$pg_slowest" 'BEGIN { printf "%.1f", s / 1000 }')|")

scripts/pg-test-cluster stop "$pg_dir" >/dev/null 2>&1 || true
trap - EXIT
