#!/usr/bin/env bash
# OwnTracks /pub throughput with wrk: starts a release whereabouts-server on a fresh database on
# 127.0.0.1, adds a device, posts one new location per request for DURATION seconds from CONNECTIONS
# connections, prints wrk's figures, and stops the server.
# Usage: Benchmarks/owntracks-pub.sh [DATABASE_URL] [CONNECTIONS] [DURATION]   (default: a temporary SQLite file, 8, 10)
# WHEREABOUTS_SERVER names another whereabouts-server executable (default: the release build).
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
SERVER="${WHEREABOUTS_SERVER:-$ROOT/Server/.build/release/whereabouts-server}"
[ -x "$SERVER" ] || (cd "$ROOT/Server" && swift build -c release --product whereabouts-server)
WORK="$(mktemp -d /tmp/whereabouts-pub.XXXXXX)"
DATABASE="${1:-sqlite:$WORK/pub.sqlite}"
CONNECTIONS="${2:-8}"
DURATION="${3:-10}"
DEVICE="wrk-$RANDOM$RANDOM"
TOKEN="$("$SERVER" device add "$DEVICE" --database "$DATABASE" | tail -1)"
"$SERVER" serve --host 127.0.0.1 --port 0 --rate-limit 0 --database "$DATABASE" >"$WORK/out" 2>"$WORK/err" &
PID=$!
trap 'kill $PID 2>/dev/null; wait $PID 2>/dev/null; rm -rf "$WORK"' EXIT
PORT=""
for _ in $(seq 100); do
    PORT="$(grep -oE '127\.0\.0\.1:[0-9]+' "$WORK/out" | head -1 | cut -d: -f2 || true)"
    [ -n "$PORT" ] && break
    sleep 0.1
done
[ -n "$PORT" ] || { echo "the server did not start:" >&2; cat "$WORK/err" >&2; exit 1; }
WHEREABOUTS_PUB_AUTH="$(printf '%s:%s' "$DEVICE" "$TOKEN" | base64 -w0)" \
    wrk -t2 -c"$CONNECTIONS" -d"${DURATION}s" --latency -s "$ROOT/Benchmarks/owntracks-pub.lua" "http://127.0.0.1:$PORT"
