#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The AMQP figures (a benchmark, not a test): starts `relaydesk serve` of BUILD_DIR
# on a fresh database file (WAL, synchronous=FULL) with free HTTP and AMQP ports,
# creates the queue through the native API, runs http_load_client health (the
# trivial reference, as http_bench.sh) and amqp_load_client (a separate process)
# for durable sends with 1 and 10 messages in flight per connection, then the
# receive+complete of what they stored. Prints one line per figure plus the CPU
# seconds each serve thread used during it (from /proc/PID/task/*/stat).
# Then the same sends over TLS (--amqps-port, the local CA of a scratch data
# folder) and the cost of a TLS handshake against a plain connect (tls_handshake.py).
#
#   tests/bench/amqp_bench.sh BUILD_DIR [SECONDS=5] [CONNECTIONS=16]
set -euo pipefail

build=${1:?usage: amqp_bench.sh BUILD_DIR [SECONDS] [CONNECTIONS]}
seconds=${2:-5}
connections=${3:-16}
relaydesk="$build/app/relaydesk"
http_client="$build/tests/bench/http_load_client"
amqp_client="$build/tests/bench/amqp_load_client"
queue=bench.amqp

source "$(dirname "$0")/serve_run.sh"
export XDG_DATA_HOME=${TMPDIR:-/tmp}/relaydesk-bench-data   # the bench's own local CA, not the user's
start_serve "$relaydesk" --amqp-port 0 --amqps-port 0 --sb-management-port 0
amqp=""
for _ in $(seq 100); do
  amqp=$(sed -n 's/^relaydesk: listening on amqp:\/\/\([^ ]*\).*/\1/p' "$work/serve.log")
  [[ -n "$amqp" ]] && break
  sleep 0.1
done
[[ -n "$amqp" ]] || { echo "serve has no AMQP endpoint:" >&2; cat "$work/serve.log" >&2; exit 1; }
amqp_host=${amqp%:*}
amqp_port=${amqp##*:}
amqps_port=$(sed -n 's/^relaydesk: listening on amqps:\/\/.*:\([0-9]*\)$/\1/p' "$work/serve.log")
ca=$("$relaydesk" tls ca)
echo "serve pid $serve_pid at $url and amqp://$amqp, database $work/broker.db"

status=$(curl -s -o "$work/create.txt" -w '%{http_code}' -X POST "$url/api/v1/servicebus/queues" \
  -H 'Content-Type: application/json' \
  -d "{\"Name\": \"$queue\", \"Properties\": {\"LockDuration\": \"PT5M\", \"MaxDeliveryCount\": 10}}")
[[ "$status" == 2* ]] || { echo "creating $queue failed ($status): $(cat "$work/create.txt")" >&2; exit 1; }

measured health "$http_client" "$url" health --queue bench-health --connections "$connections" --duration "$seconds" |
  tee "$work/health.txt"
for in_flight in 1 10; do
  measured "send-$in_flight" "$amqp_client" "$amqp_host" "$amqp_port" send --queue "$queue" --connections "$connections" \
    --duration "$seconds" --in-flight "$in_flight" | tee "$work/send-$in_flight.txt"
done
for in_flight in 1 10; do
  measured "tls-send-$in_flight" "$amqp_client" localhost "$amqps_port" send --queue "$queue" --connections "$connections" \
    --duration "$seconds" --in-flight "$in_flight" --tls "$ca" | tee "$work/tls-send-$in_flight.txt"
done
/usr/bin/python3 "$(dirname "$0")/tls_handshake.py" 127.0.0.1 "$amqps_port" "$ca" 500
measured receive "$amqp_client" "$amqp_host" "$amqp_port" receive --queue "$queue" --connections "$connections" \
  --duration "$seconds" --in-flight 10
# messages/s of a figure's line
rate_of() { sed -n 's/.*: *\([0-9.]*\) msg\/s.*/\1/p' "$1" | head -1; }
echo "ratios: AMQP send, 1 in flight / GET /health $(echo "scale=2; $(rate_of "$work/send-1.txt") / $(rate_of "$work/health.txt")" | bc);" \
     "AMQP send, 10 in flight / GET /health $(echo "scale=2; $(rate_of "$work/send-10.txt") / $(rate_of "$work/health.txt")" | bc)"
echo "ratios: AMQPS send / AMQP send, 1 in flight $(echo "scale=2; $(rate_of "$work/tls-send-1.txt") / $(rate_of "$work/send-1.txt")" | bc);" \
     "10 in flight $(echo "scale=2; $(rate_of "$work/tls-send-10.txt") / $(rate_of "$work/send-10.txt")" | bc)"
echo "database file: $(du -h "$work/broker.db" | cut -f1), serve VmRSS: $(grep VmRSS /proc/$serve_pid/status | awk '{print $2/1024 " MB"}')"
