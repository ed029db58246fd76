# SPDX-License-Identifier: MIT
# Sourced by the HTTP and AMQP benchmarks.
# start_serve RELAYDESK [SERVE-ARGS...]: a scratch folder $work, then
# `RELAYDESK serve --db $work/broker.db --port 0 SERVE-ARGS` as $serve_pid,
# its output in $work/serve.log and its http:// URL in $url; at exit serve is
# ended and $work removed.
# measured LABEL COMMAND...: runs COMMAND, prints its lines prefixed with
# [LABEL], then the CPU seconds each serve thread used meanwhile (from
# /proc/PID/task/*/stat; threads under 0.05 s left out).

source "$(dirname "${BASH_SOURCE[0]}")/serve_url.sh"

start_serve() {
  local relaydesk=$1; shift
  work=$(mktemp -d)
  serve_pid=""
  trap stop_serve EXIT
  "$relaydesk" serve --db "$work/broker.db" --port 0 "$@" >"$work/serve.log" 2>&1 &
  serve_pid=$!
  url=$(serve_url "$work/serve.log")
}

stop_serve() {
  if [[ -n "$serve_pid" ]]; then kill "$serve_pid" 2>/dev/null || true; wait "$serve_pid" 2>/dev/null || true; fi
  rm -rf "$work"
}

# "name ticks" per thread of the serve process.
thread_ticks() {
  for stat in /proc/"$serve_pid"/task/*/stat; do
    awk '{ match($0, /\(.*\)/); name = substr($0, RSTART + 1, RLENGTH - 2); rest = substr($0, RSTART + RLENGTH);
           split(rest, f, " "); print FILENAME, name, f[12] + f[13] }' "$stat" 2>/dev/null
  done
}

measured() {
  local label=$1; shift
  local hz=$(getconf CLK_TCK)
  thread_ticks >"$work/before"
  local started=$(date +%s.%N)
  "$@" | sed "s/^/[$label] /"
  local ended=$(date +%s.%N)
  thread_ticks >"$work/after"
  join <(sort "$work/before") <(sort "$work/after") |
    awk -v hz="$hz" -v wall="$(echo "$ended - $started" | bc)" \
      '{ cpu = ($NF - $(NF-2)) / hz; if (cpu > 0.05) printf "    thread %-20s %6.2f s CPU (%3.0f%% of %.1f s)\n", $2, cpu, 100 * cpu / wall, wall }'
}
