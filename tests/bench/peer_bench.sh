#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Relaydesk against an in-memory SQS peer, in one run (a benchmark, not a
# test): `relaydesk serve` on a new durable database (WAL, synchronous=FULL)
# and `sqslite` (npm, pinned in tests/bench/peer/package-lock.json, installed
# into BUILD_DIR/tests/bench/peer), each driven by http_load_client with the
# same SendMessage load over the query protocol (sqslite speaks only that);
# prints both lines and the ratio (target: Relaydesk ≥ 3× the peer).
#
#   tests/bench/peer_bench.sh BUILD_DIR [SECONDS=10] [CONNECTIONS=64]
set -euo pipefail

build=$(cd "${1:?usage: peer_bench.sh BUILD_DIR [SECONDS] [CONNECTIONS]}" && pwd)
seconds=${2:-10}
connections=${3:-64}
source_dir=$(cd "$(dirname "$0")" && pwd)
client="$build/tests/bench/http_load_client"
peer="$build/tests/bench/peer"
work=$(mktemp -d)
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT

if [[ ! -d "$peer/node_modules/sqslite" || "$source_dir/peer/package-lock.json" -nt "$peer/node_modules" ]]; then
  mkdir -p "$peer"
  cp "$source_dir/peer/package.json" "$source_dir/peer/package-lock.json" "$peer/"
  (cd "$peer" && npm ci --silent --no-audit --no-fund)
fi

source "$source_dir/serve_url.sh"
"$build/app/relaydesk" serve --db "$work/broker.db" --port 0 --amqp-port off --amqps-port off --sb-management-port off >"$work/serve.log" 2>&1 &
pids+=($!)
url=$(serve_url "$work/serve.log")

port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
node "$peer/node_modules/sqslite/bin/cli.js" --host 127.0.0.1 --port "$port" >"$work/peer.log" 2>&1 &
pids+=($!)
for _ in $(seq 100); do
  curl -s -o /dev/null "http://127.0.0.1:$port/" && break
  sleep 0.1
done

# messages/s of a figure's line
rate_of() { sed -n 's/.*: *\([0-9.]*\) msg\/s.*/\1/p' "$1" | head -1; }
"$client" "$url" send --protocol query --queue peer-bench --connections "$connections" --duration "$seconds" |
  sed 's/^/[relaydesk, durable] /' | tee "$work/relaydesk.txt"
# sqslite answers CreateQueue with 127.0.0.1 but knows its queues by a localhost URL.
"$client" "http://127.0.0.1:$port" send --protocol query --queue peer-bench --connections "$connections" \
  --duration "$seconds" --queue-url "http://localhost:$port/queues/peer-bench" | sed 's/^/[sqslite, in memory] /' | tee "$work/peer.txt"
echo "ratio: Relaydesk / sqslite $(echo "scale=2; $(rate_of "$work/relaydesk.txt") / $(rate_of "$work/peer.txt")" | bc) (target 3)"
