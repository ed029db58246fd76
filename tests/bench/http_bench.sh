#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The HTTP figures of docs/figures.md (a benchmark, not a test): starts `relaydesk serve`
# of BUILD_DIR on a fresh database file (WAL, synchronous=FULL) and a free port, runs
# http_load_client (a separate process) for each figure and prints one line per figure
# plus the CPU seconds each serve thread used during it (from /proc/PID/task/*/stat).
#
#   tests/bench/http_bench.sh BUILD_DIR [SECONDS=10] [CONNECTIONS=64] [PREFILL=50000]
set -euo pipefail

build=${1:?usage: http_bench.sh BUILD_DIR [SECONDS] [CONNECTIONS]}
seconds=${2:-10}
connections=${3:-64}
prefill=${4:-50000}
relaydesk="$build/app/relaydesk"
client="$build/tests/bench/http_load_client"

source "$(dirname "$0")/serve_run.sh"
start_serve "$relaydesk"
echo "serve pid $serve_pid at $url, database $work/broker.db"

# run LABEL CLIENT-ARGS...: the client's line, then CPU seconds per serve thread.
run() { local label=$1; shift; measured "$label" "$client" "$url" "$@"; }

run health health --queue bench-health --connections "$connections" --duration "$seconds" | tee "$work/health.txt"
run send send --queue bench-send --connections "$connections" --duration "$seconds" | tee "$work/send.txt"
run batch batch --queue bench-batch --connections "$connections" --duration "$seconds" | tee "$work/batch.txt"
run zaqar-send zaqar-send --queue bench-zaqar --connections "$connections" --duration "$seconds" | tee "$work/zaqar-send.txt"
run zaqar-batch zaqar-batch --queue bench-zaqar-batch --connections "$connections" --duration "$seconds" | tee "$work/zaqar-batch.txt"
run prefill batch --queue bench-receive --connections "$connections" --count "$prefill"
run receive-delete receive-delete --queue bench-receive --connections "$connections" --duration "$seconds"
# messages/s of a figure's line
rate_of() { sed -n 's/.*: *\([0-9.]*\) msg\/s.*/\1/p' "$1" | head -1; }
peak=$(sed -n 's/.* \([0-9]*\) req\/s.*/\1/p' "$work/send.txt" | head -1)
echo "ratios: SendMessage / GET /health $(echo "scale=2; $(rate_of "$work/send.txt") / $(rate_of "$work/health.txt")" | bc) (target 0.6);" \
     "SendMessageBatch / SendMessage $(echo "scale=2; $(rate_of "$work/batch.txt") / $(rate_of "$work/send.txt")" | bc) (target 4)"
echo "Zaqar: POST of one message / GET /health $(echo "scale=2; $(rate_of "$work/zaqar-send.txt") / $(rate_of "$work/health.txt")" | bc);" \
     "POST of 10 / POST of one $(echo "scale=2; $(rate_of "$work/zaqar-batch.txt") / $(rate_of "$work/zaqar-send.txt")" | bc)"
half=$((peak / 2))
run latency send --queue bench-latency --connections "$connections" --duration "$seconds" --rate "$half"
echo "database file: $(du -h "$work/broker.db" | cut -f1), serve VmRSS: $(grep VmRSS /proc/$serve_pid/status | awk '{print $2/1024 " MB"}')"
