# Workload: bidirectional sync of a package holding a whole source of N features (200,000
# and 1,000,000: SYNC_SIZES), after N/4 package edits (per 200,000: 20,000 attribute and
# 20,000 geometry updates, 5,000 inserts, 5,000 deletes) and N/10 source edits, 30% of them on
# rows the package edited too (a sixth of those on the same column: conflicts, settled
# package-wins).
# Contenders: pkgbuild sync; pygeodiff doing the same work on plain copies (the package
# rebased onto the source's changes from the common base, then its changeset against the
# source applied to the source), run after run in turn (SYNC_RUNS, default 5, at least RUNS).
# Sourced by bench/run (BIN, WORK, RUNS, VENV_PY, measure_alternating).

SYNC_SIZES=${SYNC_SIZES:-200000 1000000}
SYNC_RUNS=${SYNC_RUNS:-$((RUNS > 5 ? RUNS : 5))}

# The inputs of one size, generated once: sets sync_dir, sync_plain (the source as GDAL wrote
# it, geodiff's base), sync_source (the same, sync-enabled) and sync_package (pkgbuild create
# of all of it).
sync_inputs() {
    SYNC_FEATURES=$1
    sync_dir=$WORK/sync
    ((SYNC_FEATURES != 200000)) && sync_dir=$WORK/sync-$SYNC_FEATURES
    sync_plain=$sync_dir/plain.gpkg
    sync_source=$sync_dir/source.gpkg
    sync_package=$sync_dir/package.pkg
    mkdir -p "$sync_dir"
    if [[ ! -s $sync_plain ]]; then
        echo "bench: generating $SYNC_FEATURES features in $sync_plain (once)" >&2
        "$VENV_PY" - "$SYNC_FEATURES" >"$sync_dir/features.csv" <<'PY'
import sys, random
random.seed(7)
n = int(sys.argv[1])
print("x,y,name,kind,value")
for i in range(n):
    print("%.6f,%.6f,feature %d,%s,%d" % (random.uniform(-179, 179), random.uniform(-80, 80), i,
          random.choice(["well", "pole", "valve", "hydrant"]), random.randint(0, 1000)))
PY
        ogr2ogr -q -f GPKG "$sync_dir/plain.part.gpkg" "$sync_dir/features.csv" -nln features -a_srs EPSG:4326 \
            -oo X_POSSIBLE_NAMES=x -oo Y_POSSIBLE_NAMES=y -oo AUTODETECT_TYPE=YES -nlt POINT
        mv "$sync_dir/plain.part.gpkg" "$sync_plain"
        rm -f "$sync_source" && rm -rf "$sync_package"
    fi
    if [[ ! -d $sync_package ]]; then
        cp "$sync_plain" "$sync_source"
        "$BIN" source enable "$sync_source" --no-wal >/dev/null
        "$BIN" create --area=-180,-90,180,90 --features "$sync_source" --output "$sync_package" >/dev/null
        cp "$sync_source" "$sync_dir/source.base.gpkg"
    fi
}

# The edits, by fid so that every copy gets the same ones. $1: package file, $2: source file.
# Per 200,000 features, package: 20,000 attribute and 20,000 geometry updates, 5,000 deletes,
# 5,000 inserts; source: 10,000 merges with package attribute edits, 2,000 conflicts (same
# column), 2,000 merges with geometry edits, 2,000 deletes, 4,000 inserts.
sync_edit_package() {
    ogrinfo -q "$1" -sql "UPDATE features SET kind = 'pkg ' || fid WHERE fid % 10 = 1"
    ogrinfo -q "$1" -sql "UPDATE features SET geom = AsGPB(ST_GeomFromText('POINT(' || (ST_X(geom) + 0.01) || ' ' || ST_Y(geom) || ')', 4326)) WHERE fid % 10 = 3"
    ogrinfo -q "$1" -sql "DELETE FROM features WHERE fid % 40 = 5"
    ogrinfo -q "$1" -sql "INSERT INTO features (geom, name, kind, value) SELECT AsGPB(ST_GeomFromText('POINT(' || (fid % 300 - 150) || ' ' || (fid % 140 - 70) || ')', 4326)), 'new ' || fid, 'new', fid FROM features WHERE fid % 40 = 6 AND fid <= $SYNC_FEATURES"
}
sync_edit_source() {
    ogrinfo -q "$1" -sql "UPDATE features SET value = -fid WHERE fid % 20 = 1"
    ogrinfo -q "$1" -sql "UPDATE features SET kind = 'office' WHERE fid % 100 IN (11, 33)"
    ogrinfo -q "$1" -sql "DELETE FROM features WHERE fid % 100 = 50"
    ogrinfo -q "$1" -sql "INSERT INTO features (geom, name, kind, value) SELECT AsGPB(ST_GeomFromText('POINT(' || (fid % 200 - 100) || ' ' || (fid % 100 - 50) || ')', 4326)), 'office ' || fid, 'office', fid FROM features WHERE fid % 50 = 7 AND fid <= $SYNC_FEATURES"
}
sync_edit() {
    sync_edit_package "$1"
    sync_edit_source "$2"
}
sync_prepare_pkgbuild() {
    rm -rf "$sync_dir/run.pkg" && cp -r "$sync_package" "$sync_dir/run.pkg"
    cp "$sync_dir/source.base.gpkg" "$sync_dir/run-source.gpkg"
    sync_edit "$sync_dir/run.pkg/data.gpkg" "$sync_dir/run-source.gpkg"
}
sync_prepare_geodiff() {
    cp "$sync_plain" "$sync_dir/gd-package.gpkg" && cp "$sync_plain" "$sync_dir/gd-source.gpkg"
    sync_edit "$sync_dir/gd-package.gpkg" "$sync_dir/gd-source.gpkg"
    rm -f "$sync_dir"/gd-*.diff "$sync_dir"/gd-conflicts.json
}
sync_write_geodiff_script() {
    cat >"$sync_dir/geodiff_sync.py" <<'PY'
import sys, pygeodiff
d = sys.argv[1]
g = pygeodiff.GeoDiff()
# Download: the package rebased onto the source's changes since the common base.
g.rebase(d + "/plain.gpkg", d + "/gd-source.gpkg", d + "/gd-package.gpkg", d + "/gd-conflicts.json")
# Upload: what the package has that the source has not, applied to the source.
g.create_changeset(d + "/gd-source.gpkg", d + "/gd-package.gpkg", d + "/gd-upload.diff")
g.apply_changeset(d + "/gd-source.gpkg", d + "/gd-upload.diff")
PY
}

# "200k", "1M": how the table names a size.
sync_size_label() {
    if (($1 % 1000000 == 0)); then echo "$(($1 / 1000000))M"; else echo "$(($1 / 1000))k"; fi
}
# "sync 200k (50k+20k edits)": how the table names the workload of a size.
sync_workload_label() {
    echo "sync $(sync_size_label "$1") ($(sync_size_label $(($1 / 4)))+$(sync_size_label $(($1 / 10))) edits)"
}

for sync_size in $SYNC_SIZES; do
    sync_inputs "$sync_size"
    sync_write_geodiff_script
    measure_alternating "$(sync_workload_label "$sync_size")" "$SYNC_RUNS" \
        "pygeodiff rebase+apply" sync_prepare_geodiff '"$VENV_PY" "$sync_dir/geodiff_sync.py" "$sync_dir"' \
        "pkgbuild sync" sync_prepare_pkgbuild '"$BIN" sync "$sync_dir/run.pkg" --source "$sync_dir/run-source.gpkg" --on-conflict package-wins'
done
