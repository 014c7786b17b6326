# Workload: build a package's feature layers for a box over about a quarter of a large
# source, clipped and reprojected 4326 -> 3857, at 10k, 100k and 1M source features (time
# should grow linearly, memory not at all).
# Contenders: pkgbuild create (--clip --crs EPSG:3857 --no-register); GDAL's ogr2ogr with
# -spat BOX -clipsrc spat_extent -t_srs EPSG:3857 on the same input (the peer). Both must
# write the same number of features.
# Sourced by bench/run (BIN, WORK, RUNS, VENV_PY, measure).

package_sizes=(${BENCH_PACKAGE_SIZES:-10000 100000 1000000})
package_bbox=(-170 -55 0 10)      # west south east north: about a quarter of the features

# The sources: Natural Earth's cities (points) and countries (polygons, scaled down to 1/40
# of their size) copied to random places over -170..170, -55..75; 80% points, 20% polygons.
# Made once per size with GDAL's Python bindings (so not by our code) and kept.
package_source() {
    local n=$1 path=$WORK/package_source_$1.gpkg
    if [[ ! -s $path ]]; then
        echo "bench: generating $path ($n features, once)" >&2
        rm -f "$path.tmp.gpkg"
        /usr/bin/python3 - "$(pwd)/testdata/naturalearth.gpkg" "$path.tmp.gpkg" "$n" <<'PY' || return 1
import random, sys
from osgeo import ogr, osr
ogr.UseExceptions()
src, out, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
ne = ogr.Open(src)
countries = [f.GetGeometryRef().Clone() for f in ne.GetLayer("countries")]
cities = [(f.GetGeometryRef().GetX(), f.GetGeometryRef().GetY(), f.GetField("name")) for f in ne.GetLayer("cities")]
srs = osr.SpatialReference(); srs.ImportFromEPSG(4326)
ds = ogr.GetDriverByName("GPKG").CreateDataSource(out)
places = ds.CreateLayer("places", srs, ogr.wkbPoint)
places.CreateField(ogr.FieldDefn("name", ogr.OFTString))
places.CreateField(ogr.FieldDefn("rank", ogr.OFTInteger))
areas = ds.CreateLayer("areas", srs, ogr.wkbMultiPolygon)
areas.CreateField(ogr.FieldDefn("name", ogr.OFTString))
rng = random.Random(30)
ds.StartTransaction()
for i in range(n):
    x, y = rng.uniform(-170, 170), rng.uniform(-55, 75)
    if i % 5:
        cx, cy, name = cities[i % len(cities)]
        f = ogr.Feature(places.GetLayerDefn())
        f.SetField("name", name); f.SetField("rank", i % 10)
        f.SetGeometry(ogr.CreateGeometryFromWkt("POINT (%r %r)" % (x, y)))
        places.CreateFeature(f)
    else:
        g = countries[i % len(countries)].Clone()
        env = g.GetEnvelope()
        mx, my = (env[0] + env[1]) / 2, (env[2] + env[3]) / 2
        for p in range(g.GetGeometryCount()):
            ring = g.GetGeometryRef(p).GetGeometryRef(0)
            for parts in [g.GetGeometryRef(p).GetGeometryRef(r) for r in range(g.GetGeometryRef(p).GetGeometryCount())]:
                for k in range(parts.GetPointCount()):
                    px, py = parts.GetX(k), parts.GetY(k)
                    parts.SetPoint_2D(k, x + (px - mx) / 40, y + (py - my) / 40)
        if g.GetGeometryType() == ogr.wkbPolygon:
            g = ogr.ForceToMultiPolygon(g)
        f = ogr.Feature(areas.GetLayerDefn())
        f.SetField("name", "area %d" % i)
        f.SetGeometry(g)
        areas.CreateFeature(f)
    if i % 100000 == 99999:
        ds.CommitTransaction(); ds.StartTransaction()
ds.CommitTransaction()
ds = None
PY
        mv "$path.tmp.gpkg" "$path"
    fi
    echo "$path"
}

package_area="${package_bbox[0]},${package_bbox[1]},${package_bbox[2]},${package_bbox[3]}"
for n in "${package_sizes[@]}"; do
    src=$(package_source "$n") || { echo "bench: cannot generate the $n-feature source" >&2; continue; }
    out_pkg=$WORK/package_out_$n.pkg
    out_gdal=$WORK/package_out_$n.gpkg
    measure "package ${n} (clip, 3857)" "ogr2ogr -clipsrc -t_srs" "$RUNS" --floor \
        --prepare "rm -f '$out_gdal'" -- ogr2ogr -f GPKG "$out_gdal" "$src" places areas \
        -spat "${package_bbox[@]}" -clipsrc spat_extent -t_srs EPSG:3857 -nlt PROMOTE_TO_MULTI
    measure "package ${n} (clip, 3857)" "pkgbuild create" "$RUNS" \
        --prepare "rm -rf '$out_pkg' '$out_pkg.partial'" -- "$BIN" create --area="$package_area" --features "$src" \
        --clip --crs EPSG:3857 --no-register -o "$out_pkg"
    ours=$(sqlite3 "$out_pkg/data.gpkg" "SELECT (SELECT count(*) FROM places) || ' ' || (SELECT count(*) FROM areas)" 2>/dev/null || echo "?")
    theirs=$(sqlite3 "$out_gdal" "SELECT (SELECT count(*) FROM places) || ' ' || (SELECT count(*) FROM areas)" 2>/dev/null || echo "?")
    if [[ $ours == "$theirs" ]]; then
        echo "bench: package $n: both wrote $ours (places areas)" >&2
    else
        echo "bench: WARNING package $n: pkgbuild wrote $ours, ogr2ogr $theirs (places areas)" >&2
    fi
done
