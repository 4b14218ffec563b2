#!/usr/bin/env bash
# OwnTracks /pub throughput with wrk: starts a release whereabouts-server on a fresh database on
# 127.0.0.1, adds a device, posts one new location per request for DURATION seconds from CONNECTIONS
# connections, prints wrk's figures and the CPU seconds per 1000 locations of the server (and of
# PostgreSQL, for a postgres:// database), counts what was stored, and stops the server. It exits 1
# when fewer locations were stored than were acknowledged (200).
# With RECORDER=path/to/ot-recorder, the same load goes to an OwnTracks Recorder (HTTP mode, MQTT off,
# no reverse geocoding) over a fresh store instead, for a comparison in one session.
# Usage: Benchmarks/owntracks-pub.sh [DATABASE_URL] [CONNECTIONS] [DURATION]   (default: a temporary SQLite file, 8, 10)
# WHEREABOUTS_SERVER names another whereabouts-server executable (default: the release build).
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
SERVER="${WHEREABOUTS_SERVER:-$ROOT/Server/.build/release/whereabouts-server}"
WORK="$(mktemp -d /tmp/whereabouts-pub.XXXXXX)"
DATABASE="${1:-sqlite:$WORK/pub.sqlite}"
CONNECTIONS="${2:-8}"
DURATION="${3:-10}"
DEVICE="wrk-$RANDOM$RANDOM"
PID=""
trap '[ -n "$PID" ] && kill -9 $PID 2>/dev/null; wait 2>/dev/null; rm -rf "$WORK"' EXIT

# CPU seconds (user + system) the processes $@ have used.
cpu() {
    local ticks=0 pid
    for pid in "$@"; do ticks=$((ticks + $(awk '{print $14 + $15}' "/proc/$pid/stat" 2>/dev/null || echo 0))); done
    echo "$ticks / $(getconf CLK_TCK)" | bc -l
}
# The PostgreSQL server of DATABASE and its backends, when it is a postgres:// URL on this machine.
postgres_pids() {
    case "$DATABASE" in
        postgres*)
            local port postmaster
            port="$(echo "$DATABASE" | sed -E 's#.*:([0-9]+)/.*#\1#')"
            postmaster="$(pgrep -f "postgres .*-p $port( |$)" | head -1 || true)"
            [ -n "$postmaster" ] && echo "$postmaster" $(pgrep -P "$postmaster" || true)
            ;;
    esac
}

# The locations stored: the device's rows, or the Recorder's .rec lines (it files them as owntracks/phone).
stored() {
    if [ -n "${RECORDER:-}" ]; then
        cat "$WORK"/rec/owntracks/phone/*.rec 2>/dev/null | wc -l
    else
        case "$DATABASE" in
            sqlite:*) sqlite3 "${DATABASE#sqlite:}" "SELECT count(*) FROM location WHERE device_id = '$DEVICE'" ;;
            *) psql "$DATABASE" -tAc "SELECT count(*) FROM location WHERE device_id = '$DEVICE'" ;;
        esac
    fi
}

if [ -n "${RECORDER:-}" ]; then
    PORT=$((20000 + RANDOM % 20000))
    "$RECORDER" -S "$WORK" --initialize >/dev/null
    "$RECORDER" -S "$WORK" --http-host 127.0.0.1 --http-port "$PORT" --doc-root "$WORK" --norevgeo --quiet --port 0 \
        >"$WORK/out" 2>"$WORK/err" &
    PID=$!
    AUTH="none"
    for _ in $(seq 100); do curl -sf "http://127.0.0.1:$PORT/api/0/version" >/dev/null && break || sleep 0.1; done
else
    [ -x "$SERVER" ] || (cd "$ROOT/Server" && swift build -c release --product whereabouts-server)
    TOKEN="$("$SERVER" device add "$DEVICE" --database "$DATABASE" | tail -1)"
    "$SERVER" serve --host 127.0.0.1 --port 0 --rate-limit 0 --database "$DATABASE" >"$WORK/out" 2>"$WORK/err" &
    PID=$!
    AUTH="$(printf '%s:%s' "$DEVICE" "$TOKEN" | base64 -w0)"
    PORT=""
    for _ in $(seq 100); do
        PORT="$(grep -oE '127\.0\.0\.1:[0-9]+' "$WORK/out" | head -1 | cut -d: -f2 || true)"
        [ -n "$PORT" ] && break
        sleep 0.1
    done
fi
[ -n "$PORT" ] && kill -0 "$PID" 2>/dev/null || { echo "the server did not start:" >&2; cat "$WORK/err" >&2; exit 1; }
BEFORE_SERVER=$(cpu "$PID")
BEFORE_POSTGRES=$(cpu $(postgres_pids))
WHEREABOUTS_PUB_AUTH="$AUTH" \
    wrk -t2 -c"$CONNECTIONS" -d"${DURATION}s" --latency -s "$ROOT/Benchmarks/owntracks-pub.lua" "http://127.0.0.1:$PORT" | tee "$WORK/wrk"
REQUESTS="$(grep -oE '^requests [0-9]+' "$WORK/wrk" | cut -d' ' -f2)"
ACKNOWLEDGED=$((REQUESTS - $(grep -oE 'non-2xx [0-9]+' "$WORK/wrk" | cut -d' ' -f2)))
sleep 1
STORED="$(stored)"
printf 'CPU-s per 1000 locations: server %.3f, PostgreSQL %.3f\n' \
    "$(echo "($(cpu "$PID") - $BEFORE_SERVER) * 1000 / $REQUESTS" | bc -l)" \
    "$(echo "($(cpu $(postgres_pids)) - $BEFORE_POSTGRES) * 1000 / $REQUESTS" | bc -l)"
echo "stored $STORED locations; $ACKNOWLEDGED acknowledged (a request still under way when wrk stopped may be stored unanswered)"
[ "$STORED" -ge "$ACKNOWLEDGED" ]
