#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# A benchmark (not a test): one http_load_client figure against a fresh
# `relaydesk serve` of BUILD_DIR, printed as one line — the rate, and the CPU
# the broker thread and the protocol thread spent per message. For before/after
# comparisons of where work runs (docs/figures.md, "Over HTTP on loopback"):
# alternate two builds, several runs each; the rates are noisy, the CPU per
# message much less.
#
#   tests/bench/http_cpu_per_message.sh BUILD_DIR FIGURE [SECONDS=6] [CONNECTIONS=64]
# FIGURE: an http_load_client mode that sends (send, batch, zaqar-send, zaqar-batch).
set -euo pipefail

build=${1:?usage: http_cpu_per_message.sh BUILD_DIR FIGURE [SECONDS] [CONNECTIONS]}
figure=${2:?usage: http_cpu_per_message.sh BUILD_DIR FIGURE [SECONDS] [CONNECTIONS]}
seconds=${3:-6}
connections=${4:-64}

source "$(dirname "$0")/serve_run.sh"
start_serve "$build/app/relaydesk"
out=$(measured "$figure" "$build/tests/bench/http_load_client" "$url" "$figure" --queue bench \
        --connections "$connections" --duration "$seconds")
messages=$(sed -n 's/.*(\([0-9]*\) messages.*/\1/p' <<<"$out" | head -1)
rate=$(sed -n 's/.*: *\([0-9]*\) msg\/s.*/\1/p' <<<"$out" | head -1)
cpu_of() { awk -v name="$1" '$1 == "thread" && $2 == name { print $3 }' <<<"$out"; }
per_message() { echo "scale=2; ${1:-0} * 1000000 / $messages" | bc; }
echo "$figure: $rate msg/s, broker thread $(per_message "$(cpu_of relaydesk-broke)") us/msg," \
     "protocol thread $(per_message "$(cpu_of relaydesk)") us/msg ($messages messages, $build)"
