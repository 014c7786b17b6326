# Workload: download ~20,000 tiles over HTTP from nginx on 127.0.0.1.
# Contenders: curl --parallel at the same concurrency discarding the bodies (the floor: the
# transfers alone, nothing stored); the same curl writing one file per tile (storing them the
# plain way); pkgbuild tiles writing MBTiles; landez's MBTilesBuilder (PyPI) downloading the
# same tiles into MBTiles.
# Sourced by bench/run (BIN, WORK, RUNS, VENV_PY, measure).

http_bbox=(4.95 44.05 10.05 48.05)     # west south east north: 20,933 tiles at zoom 0-13
http_zooms=(0 13)
http_concurrency=8
http_root=$WORK/http_tiles
http_list=$WORK/http_tiles.txt          # z x y of every tile, from mercantile (not our code)

# The tiles: one file per tile, z/x/y.png, random bytes of 1-11 KB (incompressible, like
# PNGs), made once and kept.
if [[ ! -s $http_list ]]; then
    echo "bench: generating the HTTP tiles under $http_root (once)" >&2
    rm -rf "$http_root"
    "$VENV_PY" - "$http_root" "${http_bbox[@]}" "${http_zooms[@]}" >"$http_list.tmp" <<'PY'
import os, random, sys, mercantile
root = sys.argv[1]
w, s, e, n = map(float, sys.argv[2:6])
zmin, zmax = int(sys.argv[6]), int(sys.argv[7])
rng = random.Random(20)
for t in mercantile.tiles(w, s, e, n, zooms=list(range(zmin, zmax + 1))):
    d = os.path.join(root, str(t.z), str(t.x))
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "%d.png" % t.y), "wb") as f:
        f.write(b"%d/%d/%d " % (t.z, t.x, t.y) + rng.randbytes(rng.randint(1000, 11000)))
    print(t.z, t.x, t.y)
PY
    mv "$http_list.tmp" "$http_list"
fi
http_count=$(wc -l <"$http_list")

# nginx: one worker (the machine has two cores; the client gets the other), keep-alive
# without a request cap, no access log; its own prefix under bench/work, a free port.
http_nginx=$WORK/nginx
mkdir -p "$http_nginx/logs" "$http_nginx/tmp"
http_port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
{
    [[ $(id -u) -eq 0 ]] && echo "user root;"
    cat <<NGINX
worker_processes 1;
pid $http_nginx/nginx.pid;
error_log $http_nginx/logs/error.log warn;
events { worker_connections 256; }
http {
    access_log off;
    sendfile on;
    tcp_nopush on;
    keepalive_requests 1000000;
    keepalive_timeout 60s;
    types { image/png png; }
    default_type application/octet-stream;
    client_body_temp_path $http_nginx/tmp/body;
    proxy_temp_path $http_nginx/tmp/proxy;
    fastcgi_temp_path $http_nginx/tmp/fastcgi;
    uwsgi_temp_path $http_nginx/tmp/uwsgi;
    scgi_temp_path $http_nginx/tmp/scgi;
    server {
        listen 127.0.0.1:$http_port;
        root $http_root;
    }
}
NGINX
} >"$http_nginx/nginx.conf"

http_stop_nginx() {
    if [[ -s $http_nginx/nginx.pid ]]; then
        local pid
        pid=$(cat "$http_nginx/nginx.pid")
        nginx -p "$http_nginx" -c "$http_nginx/nginx.conf" -s quit 2>/dev/null || true
        for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
        kill -0 "$pid" 2>/dev/null && kill "$pid"
        rm -f "$http_nginx/nginx.pid"
    fi
}
trap http_stop_nginx EXIT
nginx -p "$http_nginx" -c "$http_nginx/nginx.conf"
for _ in $(seq 50); do
    curl -sf -o /dev/null "http://127.0.0.1:$http_port/0/0/0.png" && break
    sleep 0.1
done
echo "bench: http: nginx on port $http_port serving $http_count tiles, concurrency $http_concurrency" >&2

# About a second a run, with nginx on the other core: at least 5 runs each.
http_runs=$((RUNS > 5 ? RUNS : 5))
http_template="http://127.0.0.1:$http_port/{z}/{x}/{y}.png"
http_area="${http_bbox[0]},${http_bbox[1]},${http_bbox[2]},${http_bbox[3]}"
http_out=$WORK/http_out.mbtiles
http_curl_out=$WORK/http_curl_out
http_curl_config=$WORK/http_curl.cfg
http_curl_null_config=$WORK/http_curl_null.cfg
awk -v port="$http_port" -v out="$http_curl_out" \
    '{ printf "url = \"http://127.0.0.1:%s/%s/%s/%s.png\"\noutput = \"%s/%s_%s_%s.png\"\n", port, $1, $2, $3, out, $1, $2, $3 }' \
    "$http_list" >"$http_curl_config"
awk -v port="$http_port" \
    '{ printf "url = \"http://127.0.0.1:%s/%s/%s/%s.png\"\noutput = \"/dev/null\"\n", port, $1, $2, $3 }' \
    "$http_list" >"$http_curl_null_config"

measure "download ${http_count} (http)" "curl -Z $http_concurrency, discarded (floor)" "$http_runs" --floor -- \
    curl --silent --show-error --fail --parallel --parallel-max "$http_concurrency" --config "$http_curl_null_config"

measure "download ${http_count} (http)" "curl -Z $http_concurrency, file per tile" "$http_runs" \
    --prepare "rm -rf '$http_curl_out'; mkdir -p '$http_curl_out'" -- \
    curl --silent --show-error --fail --parallel --parallel-max "$http_concurrency" --config "$http_curl_config"
http_curl_files=$(find "$http_curl_out" -type f | wc -l)
[[ $http_curl_files == "$http_count" ]] || echo "bench: WARNING curl wrote $http_curl_files of $http_count tiles" >&2

measure "download ${http_count} (http)" "pkgbuild tiles -c $http_concurrency" "$http_runs" \
    --prepare "rm -f '$http_out' '$http_out.partial'" -- "$BIN" tiles --area "$http_area" \
    --zoom "${http_zooms[0]}-${http_zooms[1]}" --from "$http_template" -o "$http_out" \
    --concurrency "$http_concurrency" --max-tiles 1000000
http_ours=$(sqlite3 "$http_out" "SELECT count(*) FROM tiles" 2>/dev/null || echo "?")
[[ $http_ours == "$http_count" ]] || echo "bench: WARNING pkgbuild wrote $http_ours of $http_count tiles" >&2

# landez downloads one tile at a time (it has no concurrency setting): one run unless
# BENCH_LANDEZ_RUNS says otherwise.
measure "download ${http_count} (http)" "landez MBTilesBuilder" "${BENCH_LANDEZ_RUNS:-1}" \
    --prepare "rm -rf '$http_out' '$WORK/landez_http_tmp'" -- "$VENV_PY" bench/landez_build.py \
    url "$http_template" "$http_out" \
    "$WORK/landez_http_tmp" "${http_bbox[@]}" "${http_zooms[@]}"
http_landez=$(sqlite3 "$http_out" "SELECT count(*) FROM tiles" 2>/dev/null || echo "?")
[[ $http_landez == "$http_count" ]] || echo "bench: WARNING landez wrote $http_landez of $http_count tiles" >&2

http_stop_nginx
trap - EXIT
