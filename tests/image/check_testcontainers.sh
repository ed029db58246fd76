#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Runs the Testcontainers examples of contrib/testcontainers (Python, Java, Node) against
# the relaydesk image in podman (docs/harness.md "In CI and containers"):
#
#   tests/image/check_testcontainers.sh [IMAGE] [WORK_DIR]
#
# IMAGE: in podman's storage already (check_image.sh loads it); default $RELAYDESK_IMAGE,
#   else the IMAGE of build/image/image.env, else relaydesk:<CMakeLists.txt's VERSION>.
# WORK_DIR (default build/testcontainers): the Python venv (Debian's /usr/bin/python3,
#   the pinned requirements with their hashes), copies of the Java and Node projects with
#   their dependencies (Maven Central; npm ci from the lockfile).
#
# Testcontainers speaks Docker's API: where DOCKER_HOST answers, that engine is used;
# otherwise this starts `podman system service` on $RELAYDESK_PODMAN_SOCKET (default
# /run/podman/podman.sock) with tests/image/containers.conf, and stops it at the end.
# Ryuk is off (TESTCONTAINERS_RYUK_DISABLED): its image comes from Docker Hub, which this
# machine cannot reach; the examples stop their containers themselves, and this removes
# any that a failed start left (what Ryuk would have done). Prints each example's result
# and seconds; exits 1 if any failed, 0 with a note where no container runs.
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
CONTRIB=$ROOT/contrib/testcontainers
project_version() { sed -n 's/^project(Relaydesk VERSION \([0-9.]*\).*/\1/p' "$ROOT/CMakeLists.txt"; }
default_image() {
  if [ -f "$ROOT/build/image/image.env" ]; then sed -n 's/^IMAGE=//p' "$ROOT/build/image/image.env"
  else echo "relaydesk:$(project_version)"; fi
}
IMAGE=${1:-${RELAYDESK_IMAGE:-$(default_image)}}
WORK=$(mkdir -p "${2:-$ROOT/build/testcontainers}" && cd "${2:-$ROOT/build/testcontainers}" && pwd)
SOCKET=${RELAYDESK_PODMAN_SOCKET:-/run/podman/podman.sock}
start=$SECONDS
log() { printf 'check_testcontainers: [%3ds] %s\n' "$((SECONDS - start))" "$*" >&2; }

engine_answers() { curl -fsS --max-time 5 --unix-socket "${DOCKER_HOST#unix://}" http://engine/_ping >/dev/null 2>&1; }

service_pid=
stop_service() {
  # Containers of a failed start (no Ryuk to remove them): Testcontainers labels its own.
  local left
  left=$(podman ps -aq --filter label=org.testcontainers=true --filter "ancestor=$IMAGE" 2>/dev/null || true)
  [ -z "$left" ] || { log "removing containers left behind: $left"; podman rm -f $left >/dev/null 2>&1 || true; }
  [ -z "$service_pid" ] || { kill "$service_pid" 2>/dev/null; wait "$service_pid" 2>/dev/null || true; }
}
trap stop_service EXIT

if [ -n "${DOCKER_HOST:-}" ] && engine_answers; then
  log "the engine at $DOCKER_HOST"
elif command -v podman >/dev/null && podman image exists "$IMAGE"; then
  export DOCKER_HOST=unix://$SOCKET
  mkdir -p "$(dirname "$SOCKET")"
  CONTAINERS_CONF=$HERE/containers.conf podman system service --time=0 "$DOCKER_HOST" 2>"$WORK/podman-service.log" &
  service_pid=$!
  for _ in $(seq 300); do engine_answers && break; sleep 0.1; done   # the bound only ends a hang
  engine_answers || { log "podman system service did not answer on $DOCKER_HOST"; cat "$WORK/podman-service.log" >&2; exit 1; }
  log "podman system service on $DOCKER_HOST (pid $service_pid)"
else
  log "skipped: no Docker engine answers and podman has no image $IMAGE (no container runs here?)"
  exit 0
fi
export TESTCONTAINERS_RYUK_DISABLED=true RELAYDESK_IMAGE=$IMAGE
# The engine is on this machine: its published ports are on localhost. Testcontainers takes a
# machine with /.dockerenv (this one) for a container and would look for a gateway instead.
export TESTCONTAINERS_HOST_OVERRIDE=localhost TESTCONTAINERS_CONNECTION_MODE=docker_host

python_example() {
  local venv=$WORK/python-venv
  if ! cmp -s "$CONTRIB/python/requirements.txt" "$venv/.relaydesk-requirements.txt"; then
    rm -rf "$venv"
    /usr/bin/python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet --no-deps --require-hashes -r "$CONTRIB/python/requirements.txt"
    cp "$CONTRIB/python/requirements.txt" "$venv/.relaydesk-requirements.txt"
  fi
  (cd "$CONTRIB/python" && PYTHONDONTWRITEBYTECODE=1 "$venv/bin/python" -m unittest -v test_example)
}

java_example() {
  rm -rf "$WORK/java" && mkdir -p "$WORK/java" && cp -r "$CONTRIB/java/pom.xml" "$CONTRIB/java/src" "$WORK/java/"
  (cd "$WORK/java" && mvn -B --no-transfer-progress -Dstyle.color=never test)
}

node_example() {
  mkdir -p "$WORK/node" && cp "$CONTRIB"/node/*.js "$CONTRIB"/node/package*.json "$WORK/node/"
  if ! cmp -s "$WORK/node/package-lock.json" "$WORK/node/node_modules/.relaydesk-installed-lock.json"; then
    (cd "$WORK/node" && npm ci --no-audit --no-fund --loglevel=error)
    cp "$WORK/node/package-lock.json" "$WORK/node/node_modules/.relaydesk-installed-lock.json"
  fi
  (cd "$WORK/node" && node --test example.test.js)
}

# Each class's default image is the tag dev.sh image gives: relaydesk:<CMakeLists.txt's VERSION>.
defaults_agree() {
  local version wrong
  version=$(project_version)
  wrong=$(grep -L "IMAGE = [\"']relaydesk:$version[\"']" "$CONTRIB/python/relaydesk_testcontainer.py" \
    "$CONTRIB/java/src/main/java/dev/relaydesk/testcontainers/RelaydeskContainer.java" "$CONTRIB/node/relaydesk_container.js")
  [ -z "$wrong" ] && log "the default image of each class: relaydesk:$version" ||
    { log "a default image other than relaydesk:$version in: $wrong"; return 1; }
}

status=0 results=()
defaults_agree || status=1
for language in python java node; do
  log "$language: the example against $IMAGE"
  began=$SECONDS
  if "${language}_example" > "$WORK/$language.log" 2>&1; then result=passed; else result=FAILED; status=1; fi
  results+=("$language: $result in $((SECONDS - began)) s")
  [ $result = passed ] || tail -n 40 "$WORK/$language.log" >&2
  log "${results[-1]} (log: $WORK/$language.log)"
done
printf 'check_testcontainers: %s\n' "${results[@]}"
exit $status
