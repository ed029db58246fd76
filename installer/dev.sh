#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Relaydesk developer entry point on Debian 12.
#
#   installer/dev.sh run [ARGS...]   install what is missing, build, start relaydesk (ARGS go to the program)
#   installer/dev.sh test            install what is missing, build, run every test through CTest
#   installer/dev.sh build           install what is missing, build
#   installer/dev.sh package         build the Release configuration (build/release) and the Debian package:
#                                    build/release/relaydesk_VERSION_amd64.deb (+ relaydesk-dbgsym .ddeb)
#   installer/dev.sh check-package   build the package, install it in a fresh Debian 12 root and run it
#                                    from the installed files (installer/check-installed.sh; not in CI)
#
# Environment: RELAYDESK_BUILD_DIR (default build/dev), CI=true (warnings become errors).
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD_DIR=${RELAYDESK_BUILD_DIR:-$ROOT/build/dev}
HEADLESS_BUILD_DIR=${RELAYDESK_HEADLESS_BUILD_DIR:-$ROOT/build/headless}
RELEASE_BUILD_DIR=${RELAYDESK_RELEASE_BUILD_DIR:-$ROOT/build/release}
JOBS=$(nproc 2>/dev/null || echo 2)

# Everything the build, the app and the tests need from Debian 12.
PACKAGES=(
  cmake ninja-build g++ pkg-config
  qt6-base-dev qt6-charts-dev qt6-httpserver-dev qt6-websockets-dev qt6-svg-dev libqt6opengl6-dev libgl-dev
  nlohmann-json3-dev libsqlite3-dev libssl-dev
  xvfb xauth fonts-dejavu-core
  awscli python3-boto3 python3-cryptography openssl ca-certificates curl ccache
  # desktop integration and the .deb: generated icons, man page and completion, their checks, cpack's shlibdeps
  python3 librsvg2-bin desktop-file-utils appstream man-db groff-base bsdextrautils bash-completion dpkg-dev file
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

# build_package: the Release configuration installed under /usr, packaged by
# installer/package.cmake. Its compile flags are Debian's (-O2 -g; cpack splits
# the debug info into the -dbgsym package) — the same as the dev build's, so
# ccache serves most objects. Only the program and its data are built, not the tests.
build_package() {
  local werror=OFF launcher=()
  [ "${CI:-}" = "true" ] && werror=ON
  command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
  if [ ! -f "$RELEASE_BUILD_DIR/build.ninja" ]; then
    cmake -S "$ROOT" -B "$RELEASE_BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=Release "-DCMAKE_CXX_FLAGS_RELEASE=-O2 -g -DNDEBUG" \
      -DCMAKE_INSTALL_PREFIX=/usr -DRELAYDESK_WERROR=$werror "${launcher[@]}"
  fi
  cmake --build "$RELEASE_BUILD_DIR" -j "$JOBS" --target relaydesk relaydesk_desktop_data
  rm -f "$RELEASE_BUILD_DIR"/relaydesk*.deb "$RELEASE_BUILD_DIR"/relaydesk*.ddeb
  (cd "$RELEASE_BUILD_DIR" && cpack -G DEB)
  ls "$RELEASE_BUILD_DIR"/relaydesk_*_amd64.deb >/dev/null
}

# check_package: installs the package in a fresh Debian 12 root
# (../shared/tools/fresh-debian) and runs installer/check-installed.sh there on
# the installed files. The root's /src is a clone of the committed HEAD, which
# has no build output: the .deb goes into the kept root's /tmp between an
# unpacking run and the checking run.
check_package() {
  local deb tool root status=0
  deb=$(ls "$RELEASE_BUILD_DIR"/relaydesk_*_amd64.deb)
  tool=$ROOT/../shared/tools/fresh-debian
  root=$(mktemp -d /var/tmp/relaydesk-check-package.XXXXXX)
  (cd "$ROOT" && "$tool" --keep "$root" -- true)
  cp "$deb" "$root/tmp/"
  (cd "$ROOT" && "$tool" --reuse "$root" -- installer/check-installed.sh "/tmp/$(basename "$deb")") || status=$?
  [ -f "$root/tmp/relaydesk-window.png" ] && cp "$root/tmp/relaydesk-window.png" "$RELEASE_BUILD_DIR/check-package-window.png" \
    && log "the window as started from the desktop entry: $RELEASE_BUILD_DIR/check-package-window.png"
  rm -rf --one-file-system "$root"
  return $status
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
  package)
    install_missing
    build_package
    ;;
  check-package)
    install_missing
    build_package
    check_package
    ;;
  *)
    echo "usage: installer/dev.sh run [ARGS...] | test | build | package | check-package" >&2
    exit 2
    ;;
esac
