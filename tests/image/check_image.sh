#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Checks the relaydesk image built by installer/image/build_image.sh (installer/dev.sh image):
#
#   tests/image/check_image.sh IMAGE_DIR NODE_MODULES [podman|chroot]
#
# podman: the docker-archive loaded and started as a container (ports published on
#   loopback, RELAYDESK_CLOCK=virtual from the environment), its HEALTHCHECK run;
# chroot: where no container runs, the OCI layout unpacked with umoci and `serve` started
#   in its root as the relaydesk user, with the image's entrypoint and environment, as
#   PID 1 of its own PID namespace (as in a container: no init).
# Without a mode: podman when it can run a container here, else chroot.
# Then, from outside: image_checks.py (/health, SQS and SNS with boto3, Zaqar) and
# servicebus_check.js (the Service Bus SDK over AMQP); then SIGTERM, which must end
# serve with status 0 and leave the database in the volume. Prints each step and
# the seconds it took.
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
IMAGE_DIR=$(realpath "$1")
NODE_MODULES=$(realpath "$2")
MODE=${3:-}
# shellcheck disable=SC1091
source "$IMAGE_DIR/image.env"
export CONTAINERS_CONF=$HERE/containers.conf
PODMAN_LIMITS=(--ulimit "nofile=1024:$(ulimit -Hn)" --ulimit "nproc=4096:4096")
HTTP_PORT=${RELAYDESK_CHECK_HTTP_PORT:-19911}
AMQP_PORT=${RELAYDESK_CHECK_AMQP_PORT:-15672}
start=$SECONDS

log() { printf 'check_image: [%3ds] %s\n' "$((SECONDS - start))" "$*" >&2; }

podman_runs() {
  command -v podman >/dev/null && podman load -q -i "$IMAGE_DIR/relaydesk-image.tar" >/dev/null &&
    podman run --rm "${PODMAN_LIMITS[@]}" --entrypoint /bin/true "$IMAGE" >/dev/null 2>&1
}

# Bounded wait for a condition (a command); the bound only ends a hang.
await() {
  local what=$1; shift
  for _ in $(seq 600); do "$@" && return 0; sleep 0.1; done
  log "gave up waiting for $what"; return 1
}
healthy() { curl -fsS "http://127.0.0.1:$HTTP_PORT/health" >/dev/null 2>&1; }

run_checks() {
  local status=0
  /usr/bin/python3 "$HERE/image_checks.py" "http://127.0.0.1:$HTTP_PORT" || status=1
  NODE_PATH=$NODE_MODULES node "$HERE/servicebus_check.js" "http://127.0.0.1:$HTTP_PORT" "$AMQP_PORT" || status=1
  return $status
}

check_podman() {
  local name=relaydesk-check-$$ status=0
  podman rm -f "$name" >/dev/null 2>&1 || true
  podman volume rm -f "$name" >/dev/null 2>&1 || true
  log "podman run $IMAGE ($IMAGE_ID)"
  podman run -d --name "$name" "${PODMAN_LIMITS[@]}" -v "$name:/var/lib/relaydesk" \
    -p "127.0.0.1:$HTTP_PORT:9911" -p "127.0.0.1:$AMQP_PORT:5672" -e RELAYDESK_CLOCK=virtual "$IMAGE" >/dev/null
  await "/health" healthy || { podman logs "$name" >&2; return 1; }
  podman healthcheck run "$name" && log "HEALTHCHECK: healthy" || { log "HEALTHCHECK: unhealthy"; status=1; }
  [ "$(podman exec "$name" id -un)" = relaydesk ] && log "runs as relaydesk" || { log "not the relaydesk user"; status=1; }
  run_checks || status=1
  log "podman stop (SIGTERM)"
  podman stop -t 30 "$name" >/dev/null
  local code; code=$(podman inspect -f '{{.State.ExitCode}}' "$name")
  [ "$code" = 0 ] && log "stopped with status 0" || { log "stopped with status $code"; podman logs "$name" >&2; status=1; }
  podman run --rm "${PODMAN_LIMITS[@]}" -v "$name:/var/lib/relaydesk" --entrypoint /bin/ls "$IMAGE" /var/lib/relaydesk/relaydesk.db \
    >/dev/null && log "the database stayed in the volume" || { log "no database in the volume"; status=1; }
  podman rm -f "$name" >/dev/null; podman volume rm -f "$name" >/dev/null
  return $status
}

check_chroot() {
  local bundle status=0
  bundle=$(mktemp -d /var/tmp/relaydesk-check-image.XXXXXX)
  umoci unpack --image "$IMAGE_DIR/oci:${IMAGE#relaydesk:}" "$bundle/bundle" >/dev/null
  local rootfs=$bundle/bundle/rootfs config=$bundle/bundle/config.json
  # The image's entrypoint and environment, as its runtime config (umoci's) has them.
  mapfile -t command < <(python3 -c 'import json,sys; print("\n".join(json.load(open(sys.argv[1]))["process"]["args"]))' "$config")
  mapfile -t environment < <(python3 -c 'import json,sys; print("\n".join(json.load(open(sys.argv[1]))["process"]["env"]))' "$config")
  log "chroot --userspec relaydesk: ${command[*]} (PID 1 of its own PID namespace)"
  mount --bind /proc "$rootfs/proc" 2>/dev/null || true
  unshare --pid --fork --kill-child chroot --userspec=10001:10001 "$rootfs" /usr/bin/env -i "${environment[@]}" \
    RELAYDESK_CLOCK=virtual RELAYDESK_PORT=$HTTP_PORT RELAYDESK_AMQP_PORT=$AMQP_PORT \
    RELAYDESK_READY_FILE=/var/lib/relaydesk/ready "${command[@]}" &
  local pid=$!
  await "the ready file" test -f "$rootfs/var/lib/relaydesk/ready" || status=1
  [ $status -eq 0 ] && log "ready file: $(cat "$rootfs/var/lib/relaydesk/ready")"
  [ $status -eq 0 ] && { RELAYDESK_PORT=$HTTP_PORT bash "$rootfs/usr/local/bin/relaydesk-healthcheck" &&
    log "HEALTHCHECK script: healthy" || { log "HEALTHCHECK script: unhealthy"; status=1; }; }
  [ $status -eq 0 ] && { run_checks || status=1; }
  # serve is PID 1 of the namespace: SIGTERM to it (not to unshare).
  local serve; serve=$(pgrep -P "$(pgrep -P "$pid" || echo $pid)" || pgrep -P "$pid" || echo "$pid")
  log "SIGTERM to serve ($serve)"
  kill -TERM "$serve"
  local code=0; wait "$pid" || code=$?
  [ $code -eq 0 ] && log "stopped with status 0" || { log "stopped with status $code"; status=1; }
  [ ! -e "$rootfs/var/lib/relaydesk/ready" ] && log "ready file removed" || { log "ready file left"; status=1; }
  [ -s "$rootfs/var/lib/relaydesk/relaydesk.db" ] && log "the database stayed in the volume" || { log "no database"; status=1; }
  umount "$rootfs/proc" 2>/dev/null || true
  rm -rf --one-file-system "$bundle"
  return $status
}

if [ -z "$MODE" ]; then
  if podman_runs; then MODE=podman; else MODE=chroot; log "no container runs here: chroot"; fi
fi
status=0
"check_$MODE" || status=$?
log "$MODE: $([ $status -eq 0 ] && echo passed || echo FAILED) ($IMAGE, $((LAYER_BYTES / 1048576)) MiB)"
exit $status
