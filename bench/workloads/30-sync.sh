# Workload: bidirectional sync of a package holding a whole 200,000-feature source, after
# 50,000 package edits (20,000 attribute and 20,000 geometry updates, 5,000 inserts, 5,000
# deletes) and 20,000 source edits, 6,000 of them on rows the package edited too (1,000 on the
# same column: conflicts, settled package-wins).
# Contenders: pkgbuild sync; pygeodiff doing the same work on plain copies (the package
# rebased onto the source's changes from the common base, then its changeset against the
# source applied to the source).
# Sourced by bench/run (BIN, WORK, RUNS, VENV_PY, measure).

sync_dir=$WORK/sync
sync_plain=$sync_dir/plain.gpkg          # the source as GDAL wrote it (geodiff's base)
sync_source=$sync_dir/source.gpkg        # the same, sync-enabled
sync_package=$sync_dir/package.pkg       # pkgbuild create of all of it
SYNC_FEATURES=${SYNC_FEATURES:-200000}
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

# The edits, by fid so that every copy gets the same ones. $1: package file, $2: source file.
sync_edit() {
    ogrinfo -q "$1" -sql "UPDATE features SET kind = 'pkg ' || fid WHERE fid % 10 = 1"
    ogrinfo -q "$1" -sql "UPDATE features SET geom = AsGPB(ST_GeomFromText('POINT(' || (ST_X(geom) + 0.01) || ' ' || ST_Y(geom) || ')', 4326)) WHERE fid % 10 = 3"
    ogrinfo -q "$1" -sql "DELETE FROM features WHERE fid % 40 = 5"
    ogrinfo -q "$1" -sql "INSERT INTO features (geom, name, kind, value) SELECT AsGPB(ST_GeomFromText('POINT(' || (fid % 300 - 150) || ' ' || (fid % 140 - 70) || ')', 4326)), 'new ' || fid, 'new', fid FROM features WHERE fid % 40 = 6 AND fid <= 200000"
    # Source: 10,000 merges with package attribute edits, 2,000 conflicts (same column),
    # 2,000 merges with geometry edits, 2,000 deletes, 4,000 inserts.
    ogrinfo -q "$2" -sql "UPDATE features SET value = -fid WHERE fid % 20 = 1"
    ogrinfo -q "$2" -sql "UPDATE features SET kind = 'office' WHERE fid % 100 IN (11, 33)"
    ogrinfo -q "$2" -sql "DELETE FROM features WHERE fid % 100 = 50"
    ogrinfo -q "$2" -sql "INSERT INTO features (geom, name, kind, value) SELECT AsGPB(ST_GeomFromText('POINT(' || (fid % 200 - 100) || ' ' || (fid % 100 - 50) || ')', 4326)), 'office ' || fid, 'office', fid FROM features WHERE fid % 50 = 7 AND fid <= 200000"
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

measure "sync 200k (50k+20k edits)" "pygeodiff rebase+apply" "$RUNS" --floor --prepare sync_prepare_geodiff -- \
    "$VENV_PY" "$sync_dir/geodiff_sync.py" "$sync_dir"
measure "sync 200k (50k+20k edits)" "pkgbuild sync" "$RUNS" --prepare sync_prepare_pkgbuild -- \
    "$BIN" sync "$sync_dir/run.pkg" --source "$sync_dir/run-source.gpkg" --on-conflict package-wins
