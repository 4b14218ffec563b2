#!/usr/bin/env bash
# Loads a release whereabouts-server with wrk on loopback: /pub (one location a request, 16
# connections) and the batch API (SIZE locations a request, 8 connections), on a fresh SQLite file
# and a fresh PostgreSQL database; prints locations/s, the locations counted in the store afterwards,
# and the CPU seconds per 1000 locations of the server and of PostgreSQL (utime+stime from /proc).
# With RECORDER=path/to/ot-recorder, an OwnTracks Recorder (HTTP mode, MQTT off, no reverse geocoding,
# a fresh store) gets the same /pub load first, counted in its .rec lines: the ratios in one run.
# Each server also answers GET /api/0/version under the same 16 connections: what its HTTP stack
# serves with no storage, authentication or parsing, the ceiling any /pub figure stays under.
# Usage: run.sh SERVER_BINARY POSTGRES_URL POSTMASTER_PID [SECONDS]
# POSTGRES_URL may name the server's socket directory instead of a host (postgres://me@%2Fvar%2Frun%2Fpostgresql/postgres):
# psql and the server then both connect through the Unix-domain socket.
set -euo pipefail
server_binary=$1 postgres_url=$2 postmaster=$3 seconds=${4:-10}
here=$(cd "$(dirname "$0")" && pwd)
ticks=$(getconf CLK_TCK)
cpu() { local total=0; for pid in "$@"; do [ -r /proc/$pid/stat ] && total=$((total + $(awk '{print $14 + $15}' /proc/$pid/stat))); done; echo $total; }
pg_pids() { [ "$postmaster" = 0 ] && return; echo "$postmaster $(pgrep -P "$postmaster" | tr '\n' ' ')"; }
# Prints one row: STORE LOAD STORED SERVER_TICKS POSTGRES_TICKS, with wrk's output in /tmp/wrk.out.
report() {
    local requests errors
    requests=$(awk '/requests in/ {print $1}' /tmp/wrk.out)
    errors=$(grep -c "Non-2xx\|error" /tmp/wrk.out || true)
    awk -v store=$1 -v load=$2 -v stored=$3 -v requests=$requests -v s=$seconds -v ticks=$ticks -v server=$4 -v pg=$5 -v errors=$errors \
        'BEGIN { printf "%-8s %-5s %9.0f loc/s  stored %8d of %8d requests  CPU-s/1000: server %.3f, postgres %.3f  (wrk error lines %d)\n",
            store, load, stored / s, stored, requests, server / ticks / stored * 1000, pg / ticks / stored * 1000, errors }'
}
# Prints one row for GET /api/0/version on the server NAME (process PID) at PORT: requests/s and CPU-s per 1000.
ceiling() {
    local before after requests
    before=$(cpu $2)
    wrk -t4 -c16 -d${seconds}s "http://127.0.0.1:$3/api/0/version" > /tmp/wrk-version.out
    after=$(cpu $2)
    requests=$(awk '/requests in/ {print $1}' /tmp/wrk-version.out)
    awk -v name=$1 -v requests=$requests -v s=$seconds -v ticks=$ticks -v used=$((after - before)) \
        'BEGIN { printf "%-8s version %7.0f req/s  (no storage: the HTTP ceiling)  CPU-s/1000: server %.3f\n",
            name, requests / s, used / ticks / requests * 1000 }'
}

if [ -n "${RECORDER:-}" ]; then
    folder=$(mktemp -d)
    "$RECORDER" -S "$folder" --initialize >/dev/null
    port=$((20000 + RANDOM % 20000))
    "$RECORDER" -S "$folder" --http-host 127.0.0.1 --http-port $port --doc-root "$folder" --norevgeo --quiet --port 0 \
        > /tmp/wrk-server.out 2>&1 &
    server=$!
    until curl -sf "http://127.0.0.1:$port/api/0/version" >/dev/null; do sleep 0.1; done
    before_server=$(cpu $server)
    LOAD=pub DEVICE=bench TOKEN=none wrk -t4 -c16 -d${seconds}s -s "$here/load.lua" "http://127.0.0.1:$port" > /tmp/wrk.out
    after_server=$(cpu $server)
    ceiling recorder $server $port
    kill $server; wait $server || true
    # It files what /pub brings without u= and d= as owntracks/phone, a line a location.
    report recorder pub "$(cat "$folder"/rec/owntracks/phone/*.rec | wc -l)" $((after_server - before_server)) 0
    rm -rf "$folder"
fi

for store in sqlite postgres; do
    for load in pub batch; do
        if [ $store = sqlite ]; then
            folder=$(mktemp -d); database="sqlite:$folder/bench.sqlite"
        else
            name="wrk_$(date +%s%N | tail -c 9)"
            psql "$postgres_url" -qc "CREATE DATABASE $name" >/dev/null
            database="${postgres_url%/*}/$name"
        fi
        token=$("$server_binary" device add bench --database "$database" | tail -1)
        "$server_binary" serve --port 0 --rate-limit 0 --database "$database" --log-level error > /tmp/wrk-server.out 2>&1 &
        server=$!
        until grep -q listening /tmp/wrk-server.out; do sleep 0.1; done
        port=$(grep -o '127.0.0.1:[0-9]*' /tmp/wrk-server.out | head -1 | cut -d: -f2)
        pg=$([ $store = postgres ] && pg_pids || true)
        before_server=$(cpu $server); before_pg=$(cpu $pg)
        if [ $load = pub ]; then
            LOAD=pub DEVICE=bench TOKEN=$token wrk -t4 -c16 -d${seconds}s -s "$here/load.lua" "http://127.0.0.1:$port" > /tmp/wrk.out
        else
            LOAD=batch DEVICE=bench TOKEN=$token SIZE=${SIZE:-500} wrk -t4 -c8 -d${seconds}s -s "$here/load.lua" "http://127.0.0.1:$port" > /tmp/wrk.out
        fi
        pg=$([ $store = postgres ] && pg_pids || true)
        after_server=$(cpu $server); after_pg=$(cpu $pg)
        [ $store = sqlite ] && [ $load = pub ] && ceiling ours $server $port
        kill $server; wait $server || true
        stored=$("$server_binary" device list --database "$database" | awk '$1 == "bench" {print $2}')
        report $store $load "$stored" $((after_server - before_server)) $((after_pg - before_pg))
        [ $store = postgres ] && psql "$postgres_url" -qc "DROP DATABASE $name WITH (FORCE)" >/dev/null
    done
done
