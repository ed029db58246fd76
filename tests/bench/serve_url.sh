# SPDX-License-Identifier: MIT
# Sourced by the HTTP benchmarks. serve_url LOG: waits (≤ 10 s) for the ready
# line of `relaydesk serve` in LOG and prints its http:// URL; exits the
# script with the log when it never comes.
serve_url() {
  local log=$1 url=""
  for _ in $(seq 100); do
    url=$(sed -n 's/^relaydesk: listening on \(http:[^ ]*\).*/\1/p' "$log")
    [[ -n "$url" ]] && { echo "$url"; return; }
    sleep 0.1
  done
  echo "serve did not start:" >&2; cat "$log" >&2; exit 1
}
