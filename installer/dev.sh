#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Relaydesk developer entry point on Debian 12.
#
#   installer/dev.sh run [ARGS...]   install what is missing, build, start relaydesk (ARGS go to the program)
#   installer/dev.sh test            install what is missing, build, run every test through CTest
#   installer/dev.sh build           install what is missing, build
#
# Environment: RELAYDESK_BUILD_DIR (default build/dev), CI=true (warnings become errors).
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD_DIR=${RELAYDESK_BUILD_DIR:-$ROOT/build/dev}
HEADLESS_BUILD_DIR=${RELAYDESK_HEADLESS_BUILD_DIR:-$ROOT/build/headless}
JOBS=$(nproc 2>/dev/null || echo 2)

# Everything the build, the app and the tests need from Debian 12.
PACKAGES=(
  cmake ninja-build g++ pkg-config
  qt6-base-dev qt6-charts-dev qt6-httpserver-dev qt6-websockets-dev qt6-svg-dev libqt6opengl6-dev libgl-dev
  nlohmann-json3-dev libsqlite3-dev libssl-dev
  xvfb xauth fonts-dejavu-core
  awscli python3-boto3 python3-cryptography openssl ca-certificates curl ccache
)

log() { printf 'dev.sh: %s\n' "$*" >&2; }

install_missing() {
  local missing=() package
  for package in "${PACKAGES[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q 'install ok installed'; then
      missing+=("$package")
    fi
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  local sudo=()
  if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null || { log "need root to install: ${missing[*]}"; exit 1; }
    sudo=(sudo)
  fi
  log "installing ${missing[*]}"
  "${sudo[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
}

# configure_and_build DIR [cmake options...]: configures once, then rebuilds incrementally.
# ccache, with paths taken relative to the checkout, lets the headless build
# reuse the objects the full build just compiled (same sources, same flags).
export CCACHE_BASEDIR="$ROOT" CCACHE_NOHASHDIR=true
configure_and_build() {
  local dir=$1; shift
  local werror=OFF launcher=()
  [ "${CI:-}" = "true" ] && werror=ON
  command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
  if [ ! -f "$dir/build.ninja" ]; then   # also after a configure that failed half-way
    cmake -S "$ROOT" -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DRELAYDESK_WERROR=$werror "${launcher[@]}" "$@"
  fi
  cmake --build "$dir" -j "$JOBS"
}

has_display() {
  [ -n "${DISPLAY:-}" ] || [ -n "${WAYLAND_DISPLAY:-}" ]
}

command=${1:-}
[ $# -gt 0 ] && shift
case "$command" in
  run)
    install_missing
    configure_and_build "$BUILD_DIR"
    app="$BUILD_DIR/app/relaydesk"
    if [ $# -gt 0 ] || has_display; then
      exec "$app" "$@"
    fi
    log "no display available (DISPLAY and WAYLAND_DISPLAY are unset): the window cannot open here;"
    log "starting the headless broker on the default database instead: relaydesk serve"
    exec "$app" serve
    ;;
  test)
    install_missing
    configure_and_build "$BUILD_DIR"
    ctest --test-dir "$BUILD_DIR" --output-on-failure -j "$JOBS"
    # The engine must build and pass without any GUI module (RELAYDESK_GUI=OFF).
    configure_and_build "$HEADLESS_BUILD_DIR" -DRELAYDESK_GUI=OFF
    ctest --test-dir "$HEADLESS_BUILD_DIR" --output-on-failure -j "$JOBS"
    ;;
  build)
    install_missing
    configure_and_build "$BUILD_DIR"
    ;;
  *)
    echo "usage: installer/dev.sh run [ARGS...] | test | build" >&2
    exit 2
    ;;
esac
