"""The peer of both tile workloads: landez's MBTilesBuilder over a bbox and a zoom range.

Usage: landez_build.py file|url SOURCE OUT TMP_DIR WEST SOUTH EAST NORTH MINZOOM MAXZOOM
SOURCE is an MBTiles file (file) or an XYZ URL template (url).
"""
import sys

from landez import MBTilesBuilder

kind, source, out, tmp = sys.argv[1:5]
w, s, e, n = map(float, sys.argv[5:9])
zmin, zmax = int(sys.argv[9]), int(sys.argv[10])
source_option = {"file": "mbtiles_file", "url": "tiles_url"}[kind]
mb = MBTilesBuilder(filepath=out, tmp_dir=tmp, cache=False, **{source_option: source})
mb.add_coverage(bbox=(w, s, e, n), zoomlevels=list(range(zmin, zmax + 1)))
mb.run()
