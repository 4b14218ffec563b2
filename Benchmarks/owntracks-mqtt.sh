#!/usr/bin/env bash
# OwnTracks over MQTT: starts Debian's mosquitto on a free port and INSTANCES release
# whereabouts-servers subscribed to it in one share group over DATABASE_URL, publishes MESSAGES
# location messages at QoS 1 with mosquitto_pub, as the apps send them, and times until every one
# is stored. Prints messages/s, what was stored (it must be MESSAGES exactly: none lost, none twice)
# and the CPU seconds per 1000 messages of the servers, mosquitto and PostgreSQL.
# With KILLS=N, the first instance is SIGKILLed and started again N times while the messages arrive
# (every 0.2 s); then the CPU figures are left out, and the count checks none was lost or stored twice.
# With RECORDER=path/to/ot-recorder (built with MQTT), an OwnTracks Recorder subscribes instead of the
# servers (QoS 1, no reverse geocoding), over a fresh store, and the count is of its .rec lines: the
# same messages, in one session, for a comparison.
# Usage: Benchmarks/owntracks-mqtt.sh [DATABASE_URL] [INSTANCES] [MESSAGES]
#   (default: a temporary SQLite file, 1, 100000; a postgres:// URL names an existing database)
# WHEREABOUTS_SERVER names another whereabouts-server executable (default: the release build);
# MQTT_INFLIGHT sets mosquitto's max_inflight_messages, the messages each subscriber holds unacknowledged
# (default 20, mosquitto's own default).
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
SERVER="${WHEREABOUTS_SERVER:-$ROOT/Server/.build/release/whereabouts-server}"
[ -x "$SERVER" ] || (cd "$ROOT/Server" && swift build -c release --product whereabouts-server)
for tool in mosquitto mosquitto_pub; do
    command -v "$tool" >/dev/null || [ -x "/usr/sbin/$tool" ] || { echo "$tool is missing: apt-get install mosquitto mosquitto-clients" >&2; exit 1; }
done
MOSQUITTO="$(command -v mosquitto || echo /usr/sbin/mosquitto)"
[ -n "${RECORDER:-}" ] && [ "${KILLS:-0}" -gt 0 ] && { echo "KILLS kills a server instance; leave it out with RECORDER" >&2; exit 2; }
WORK="$(mktemp -d /tmp/whereabouts-mqtt.XXXXXX)"
DATABASE="${1:-sqlite:$WORK/mqtt.sqlite}"
INSTANCES="${2:-1}"
MESSAGES="${3:-100000}"
DEVICE="mqtt-$RANDOM$RANDOM"
USER_NAME="user-$RANDOM$RANDOM"
PIDS=()
trap 'kill "${PIDS[@]}" $(cat "$WORK"/*.pid 2>/dev/null) 2>/dev/null; wait 2>/dev/null; [ -n "${KEEP:-}" ] && echo "kept $WORK" || rm -rf "$WORK"' EXIT

# The Recorder's stored lines for the device, the probe counted once (it keeps each copy of a message,
# and the probe may go out twice before it is seen stored), or with `distinct`, its distinct times.
recorded() {
    cat "$WORK"/store/rec/"$USER_NAME"/phone/*.rec 2>/dev/null | if [ "${1:-}" = distinct ]; then
        cut -f1 | sort -u | wc -l
    else
        awk '/"lat":10[,}]/ { probe = 1; next } { n++ } END { print n + probe }'
    fi
}
# The stored locations of the device.
stored() {
    [ -n "${RECORDER:-}" ] && { recorded; return; }
    case "$DATABASE" in
        sqlite:*) sqlite3 "${DATABASE#sqlite:}" "SELECT count(*) FROM location WHERE device_id = '$DEVICE'" 2>/dev/null || echo 0 ;;
        *) psql "$DATABASE" -tAc "SELECT count(*) FROM location WHERE device_id = '$DEVICE'" ;;
    esac
}
# The stored locations with distinct times: less than stored() when one was stored twice.
distinct() {
    [ -n "${RECORDER:-}" ] && { recorded distinct; return; }
    case "$DATABASE" in
        sqlite:*) sqlite3 "${DATABASE#sqlite:}" "SELECT count(DISTINCT t) FROM location WHERE device_id = '$DEVICE'" ;;
        *) psql "$DATABASE" -tAc "SELECT count(DISTINCT t) FROM location WHERE device_id = '$DEVICE'" ;;
    esac
}
# CPU seconds (user + system) the processes $@ have used.
cpu() {
    local ticks=0 pid
    for pid in "$@"; do ticks=$((ticks + $(awk '{print $14 + $15}' "/proc/$pid/stat" 2>/dev/null || echo 0))); done
    echo "$ticks / $(getconf CLK_TCK)" | bc -l
}
postgres_pids() { pgrep -x postgres || true; }

PORT=$((20000 + RANDOM % 20000))
printf 'listener %s 127.0.0.1\nallow_anonymous true\nmax_queued_messages 0\nmax_inflight_messages %s\npersistence false\n' \
    "$PORT" "${MQTT_INFLIGHT:-20}" >"$WORK/mosquitto.conf"
"$MOSQUITTO" -c "$WORK/mosquitto.conf" >"$WORK/mosquitto.log" 2>&1 &
PIDS+=($!)
BROKER=$!
"$SERVER" device add "$DEVICE" --database "$DATABASE" >/dev/null
"$SERVER" device set-user "$DEVICE" "$USER_NAME" --name phone --database "$DATABASE" >/dev/null
# Starts instance $1 in the background; its pid goes to server-$1.pid.
start_server() {
    "$SERVER" serve --host 127.0.0.1 --port 0 --database "$DATABASE" --log-level "${LOG_LEVEL:-error}" \
        --mqtt "mqtt://127.0.0.1:$PORT?share=bench&client_id=bench-$1-$DEVICE" >>"$WORK/server-$1.out" 2>&1 &
    echo $! >"$WORK/server-$1.pid"
}
SERVERS=()
if [ -n "${RECORDER:-}" ]; then
    mkdir -p "$WORK/store"
    "$RECORDER" -S "$WORK/store" --initialize >/dev/null
    "$RECORDER" -S "$WORK/store" --norevgeo --quiet --http-port 0 --host 127.0.0.1 --port "$PORT" --qos 1 \
        --clientid "recorder-$DEVICE" 'owntracks/#' >"$WORK/server-1.out" 2>&1 &
    echo $! >"$WORK/server-1.pid"
    SERVERS+=("$(cat "$WORK/server-1.pid")")
    INSTANCES="the Recorder"
else
    for index in $(seq "$INSTANCES"); do
        start_server "$index"
        SERVERS+=("$(cat "$WORK/server-$index.pid")")
    done
fi
TOPIC="owntracks/$USER_NAME/phone"
NOW=$(date +%s)
awk -v n="$MESSAGES" -v t="$((NOW - 86400))" 'BEGIN { for (i = 0; i < n; i++)
    printf "{\"_type\":\"location\",\"lat\":%.6f,\"lon\":2.29,\"tst\":%d,\"acc\":5,\"tid\":\"mq\"}\n", 48 + (i % 1000) * 1e-5, t + i }' >"$WORK/messages"
# One probe message tells when the servers have subscribed.
for _ in $(seq 300); do
    mosquitto_pub -h 127.0.0.1 -p "$PORT" -q 1 -t "$TOPIC" -m "{\"_type\":\"location\",\"lat\":10,\"lon\":2.29,\"tst\":$((NOW - 100000)),\"acc\":5}"
    [ "$(stored)" -ge 1 ] && break
    sleep 0.2
done
[ "$(stored)" -ge 1 ] || { echo "the servers never stored the probe:" >&2; cat "$WORK"/server-*.out >&2; exit 1; }
sleep 1
BEFORE_SERVERS=$(cpu "${SERVERS[@]}")
BEFORE_BROKER=$(cpu "$BROKER")
BEFORE_POSTGRES=$(cpu $(postgres_pids))
START=$(date +%s.%N)
# In parts: mosquitto 2.0 drops a client that publishes some 30,000 messages in one go ("out of memory").
split -l 10000 "$WORK/messages" "$WORK/part-"
KILLER=""
if [ "${KILLS:-0}" -gt 0 ]; then
    (for _ in $(seq "$KILLS"); do
        sleep 0.2
        kill -9 "$(cat "$WORK/server-1.pid")"
        start_server 1
    done) 2>/dev/null &
    KILLER=$!
fi
for part in "$WORK"/part-*; do mosquitto_pub -h 127.0.0.1 -p "$PORT" -q 1 -t "$TOPIC" -l <"$part"; done
[ -n "$KILLER" ] && wait "$KILLER"
TARGET=$((MESSAGES + 1))
while [ "$(stored)" -lt "$TARGET" ]; do
    sleep 0.05
    if [ "$(echo "$(date +%s.%N) - $START > 600" | bc)" = 1 ]; then break; fi
done
END=$(date +%s.%N)
COUNT=$(stored)
SECONDS_TAKEN=$(echo "$END - $START" | bc -l)
per_thousand() { echo "($1 - $2) * 1000 / $MESSAGES" | bc -l; }
printf 'instances %s (in flight %s), %s messages in %.2f s: %.0f messages/s; stored %s of %s\n' \
    "$INSTANCES" "${MQTT_INFLIGHT:-20}" "$MESSAGES" "$SECONDS_TAKEN" "$(echo "$MESSAGES / $SECONDS_TAKEN" | bc -l)" "$((COUNT - 1))" "$MESSAGES"
if [ "${KILLS:-0}" -gt 0 ]; then
    printf '%s SIGKILLs of instance 1; stored twice: %s\n' "$KILLS" "$((COUNT - $(distinct)))"
else
    printf 'CPU-s per 1000 messages: servers %.3f, mosquitto %.3f, PostgreSQL %.3f\n' \
        "$(per_thousand "$(cpu "${SERVERS[@]}")" "$BEFORE_SERVERS")" "$(per_thousand "$(cpu "$BROKER")" "$BEFORE_BROKER")" \
        "$(per_thousand "$(cpu $(postgres_pids))" "$BEFORE_POSTGRES")"
fi
[ "$COUNT" -eq "$TARGET" ] && [ "$COUNT" -eq "$(distinct)" ]
