# Workload: plan a basemap over a large area before anything is written: `estimate` of the
# whole world at zoom 0-24 (a box: counted per zoom in closed form, 4^z tiles at zoom z;
# over --max-tiles, so it prints the zooms that fit), and of a polygon outlining the
# conterminous United States at zoom 0-16 (walked to the zoom that passes --max-tiles, the
# deeper ones estimated). Both must answer in well under a second, whatever the zoom.
# Contenders: pkgbuild estimate; the floor for the box is mercantile's own arithmetic (the
# corner tiles of each zoom, as mercantile.tiles starts from them), in Python.
# Sourced by bench/run (BIN, WORK, RUNS, VENV_PY, measure).

estimate_world=(-180 -85.0511287798066 180 85.0511287798066)
estimate_conus='POLYGON((-124.7 48.4,-123 46,-124.5 42,-120 34.5,-117 32.5,-111 31.3,-106.5 31.8,-103 29,-97.2 25.9,-97.4 27.8,-94 29.7,-89 30.2,-84 30,-82.5 27,-80.1 25.2,-80 27,-81.4 30.5,-75.5 35.2,-76 37,-74 40.5,-70 41.7,-70.7 43,-67 44.8,-69.2 47.4,-71.5 45,-75 45,-79 43.5,-83 42,-82.5 45.5,-88 48,-95.2 49,-123 49,-124.7 48.4))'

measure "estimate world z0-24" "mercantile corner tiles (floor)" "$RUNS" --floor -- \
    "$VENV_PY" -c '
import sys, mercantile
w, s, e, n = map(float, sys.argv[1:5])
total = 0
for z in range(25):
    ul, lr = mercantile.tile(w, n, z), mercantile.tile(e - mercantile.LL_EPSILON, s + mercantile.LL_EPSILON, z)
    total += (lr.x - ul.x + 1) * (lr.y - ul.y + 1)
print(total)' "${estimate_world[@]}"
measure "estimate world z0-24" "pkgbuild estimate" "$RUNS" -- \
    "$BIN" estimate --area="$(IFS=,; echo "${estimate_world[*]}")" --features testdata/naturalearth.gpkg \
    --layer countries --tiles testdata/ne_raster_z0-5.mbtiles --zoom 0-24
measure "estimate CONUS polygon z0-16" "pkgbuild estimate" "$RUNS" -- \
    "$BIN" estimate --area="$estimate_conus" --features testdata/naturalearth.gpkg \
    --layer countries --tiles testdata/ne_raster_z0-5.mbtiles --zoom 0-16
