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
#   installer/dev.sh image [--update-lock]  the package, then the container image of `relaydesk serve` from it
#                                    (installer/image/build_image.sh: build/image/relaydesk-image.tar and an OCI
#                                    layout), then tests/image/check_image.sh on it: in podman where containers run,
#                                    else in a chroot of its root, and the Testcontainers examples (Python, Java,
#                                    Node) against it; --update-lock rewrites installer/image/packages.lock
#                                    (not in CI: a few minutes besides the package)
#   installer/dev.sh fuzz [MINUTES]  every fuzz target under libFuzzer with ASan+UBSan (clang, build/fuzz),
#                                    MINUTES in all (default 10), each from its seed corpus; findings in build/fuzz/findings
#   installer/dev.sh check-sanitizers  every test with ASan+UBSan (g++, build/asan), then the engine and broker
#                                    tests with TSan (build/tsan); any sanitizer report fails it (not in CI: slow)
#   installer/dev.sh check-fresh [--keep DIR]  the set-up proof: `installer/dev.sh test` in a brand-new Debian 12 root
#                                    on a clean clone of HEAD (../shared/tools/fresh-debian; needs root; run it
#                                    after changing the package list, a find_package call or a test's tools)
#
# Environment: RELAYDESK_BUILD_DIR (default build/dev), CI=true (warnings become errors).
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD_DIR=${RELAYDESK_BUILD_DIR:-$ROOT/build/dev}
HEADLESS_BUILD_DIR=${RELAYDESK_HEADLESS_BUILD_DIR:-$ROOT/build/headless}
RELEASE_BUILD_DIR=${RELAYDESK_RELEASE_BUILD_DIR:-$ROOT/build/release}
FUZZ_BUILD_DIR=${RELAYDESK_FUZZ_BUILD_DIR:-$ROOT/build/fuzz}
ASAN_BUILD_DIR=${RELAYDESK_ASAN_BUILD_DIR:-$ROOT/build/asan}
TSAN_BUILD_DIR=${RELAYDESK_TSAN_BUILD_DIR:-$ROOT/build/tsan}
JOBS=$(nproc 2>/dev/null || echo 2)

# Everything the build, the app and the tests need from Debian 12 (prove a change with check-fresh).
PACKAGES=(
  # build
  cmake ninja-build g++ pkg-config ccache mold
  qt6-base-dev qt6-charts-dev qt6-httpserver-dev qt6-websockets-dev qt6-svg-dev libqt6opengl6-dev libgl-dev
  # the window's connections keep their secrets in the desktop's secret service (tested with
  # gnome-keyring under a D-Bus session of its own: tests/ui/with_secret_service.sh)
  qtkeychain-qt6-dev dbus gnome-keyring
  nlohmann-json3-dev libsqlite3-dev libssl-dev
  # Azure Service Bus over AMQP 1.0: framing, links, flow control and SASL
  libqpid-proton-cpp12-dev
  # the window under a virtual X display: the screenshots target, check-package
  xvfb xauth fonts-dejavu-core
  # tests: the e2e clients (boto3 and awscli: query protocol; node + the AWS SDK for JavaScript
  # from npm: SQS JSON protocol), Prometheus's own text parser (the /metrics check), test
  # certificates, the documented curl examples, and the README quick start's private network
  # namespace (ip, unshare); python3-zaqarclient: the Zaqar v2 API's client
  # policy scan: YAML templates (yaml-cpp); the SARIF schema check (python3-jsonschema)
  libyaml-cpp-dev python3-jsonschema
  python3 python3-boto3 python3-cryptography python3-prometheus-client python3-zaqarclient awscli nodejs npm
  # the Service Bus SDKs of Python (azure-servicebus, kombu from PyPI in a venv) and Java
  # (azure-messaging-servicebus from Maven Central): install_sdk_packages
  python3-venv maven openjdk-17-jdk-headless
  openssl ca-certificates curl iproute2 util-linux
  # desktop integration and the .deb: generated icons, man page and completion, their checks, cpack's shlibdeps
  librsvg2-bin desktop-file-utils appstream man-db groff-base bsdextrautils bash-completion dpkg-dev file
)

log() { printf 'dev.sh: %s\n' "$*" >&2; }

# A package counts as there when it is installed or an installed package provides it
# (e.g. a nodejs build that bundles npm).
install_missing() {
  local missing=() package provided
  provided=$(dpkg-query -W -f='${db:Status-Abbrev} ${Package} ${Provides}\n' 2>/dev/null \
             | awk '$1 == "ii" { for (i = 2; i <= NF; i++) { sub(/[:,].*/, "", $i); if ($i ~ /^[a-z0-9]/) print $i } }' \
             | sort -u)
  for package in "${PACKAGES[@]}"; do
    if ! grep -qxF "$package" <<<"$provided"; then
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

# configure DIR [cmake options...]: configures once (again after a configure
# that failed half-way). The development builds keep assertions (-O2 -g
# without -DNDEBUG), so every test runs the product's asserts; the package
# (build_package) is built without them. ccache, with paths taken relative to
# the checkout, lets the headless build and other checkouts of the project
# reuse the objects already compiled (same sources, same flags); the
# sloppiness lets it serve units built with a precompiled header.
export CCACHE_BASEDIR="$ROOT" CCACHE_NOHASHDIR=true
export CCACHE_SLOPPINESS=pch_defines,time_macros,include_file_mtime,include_file_ctime
# ccache's size: one dev and one headless build fill about 1.2–1.5 GB of it
# (docs/figures.md "Issue 38, round two"); a cache smaller than 3 GB would
# evict the one configuration while building the other, so it is raised to
# 3 GB (never lowered: a larger size someone chose stays).
CCACHE_MIN_SIZE_GB=3
size_ccache() {
  command -v ccache >/dev/null || return 0
  local size
  size=$(ccache --get-config max_size 2>/dev/null) || return 0
  # "5.0G", "500M", "0" (unlimited) or a plain number of KiB, in ccache's own units
  local gb
  gb=$(awk -v s="$size" 'BEGIN { n = s + 0; u = substr(s, length(s)); if (n == 0) { print 999; exit }
         if (u == "T" || u == "Ti") n *= 1024; else if (u == "M" || u == "Mi") n /= 1024; else if (u !~ /[GgTtMm]/) n /= 1048576
         print n }')
  if awk -v g="$gb" -v min="$CCACHE_MIN_SIZE_GB" 'BEGIN { exit !(g < min) }'; then
    log "ccache holds $size; raising it to ${CCACHE_MIN_SIZE_GB}G (both configurations)"
    ccache --max-size="${CCACHE_MIN_SIZE_GB}G" >/dev/null
  fi
}

configure() {
  local dir=$1; shift
  size_ccache
  local werror=OFF launcher=()
  [ "${CI:-}" = "true" ] && werror=ON
  command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
  if [ ! -f "$dir/build.ninja" ]; then
    cmake -S "$ROOT" -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O2 -g" \
      -DRELAYDESK_WERROR=$werror "${launcher[@]}" "$@"
  fi
}

# build DIR [targets...]: builds the targets (everything when none is named).
build() {
  local dir=$1; shift
  local targets=()
  [ $# -gt 0 ] && targets=(--target "$@")
  cmake --build "$dir" -j "$JOBS" "${targets[@]}"
}

# run_tests DIR: every test of DIR through CTest. Most tests wait on processes,
# sockets and the disk rather than computing, so CTest runs twice as many at
# once as there are cores.
run_tests() {
  local dir=$1
  install_node_modules "$dir/tests/e2e/js"
  install_node_modules "$dir/tests/core/connections/sqslite"   # sqslite_connection_test's peer
  install_sdk_packages
  ctest --test-dir "$dir" --output-on-failure -j "$((JOBS * 2))"
}

# install_node_modules DIR: the AWS SDK for JavaScript of the e2e tests, exactly as
# tests/e2e/js/package-lock.json pins it (CMake copies it to DIR), into the build tree;
# again only when the lockfile changed.
install_node_modules() {
  local dir=$1
  [ -f "$dir/package-lock.json" ] || return 0
  if ! cmp -s "$dir/package-lock.json" "$dir/node_modules/.relaydesk-installed-lock.json"; then
    log "npm ci in $dir"
    (cd "$dir" && npm ci --no-audit --no-fund --loglevel=error)
    cp "$dir/package-lock.json" "$dir/node_modules/.relaydesk-installed-lock.json"
  fi
}

# install_sdk_packages: the Service Bus SDK tests' packages, again only when their pins changed:
# a virtual environment of Debian's python3 with installer/requirements-e2e.txt (every package
# pinned by hash; CMake's RELAYDESK_E2E_VENV), and a Maven repository of the checkout (CMake's
# RELAYDESK_E2E_MAVEN_REPO) filled for tests/e2e/java/pom.xml, which CTest builds and runs offline.
E2E_VENV=$ROOT/build/venv-e2e
E2E_MAVEN_REPO=$ROOT/build/m2
install_sdk_packages() {
  local requirements="$ROOT/installer/requirements-e2e.txt" pom="$ROOT/tests/e2e/java/pom.xml"
  if ! cmp -s "$requirements" "$E2E_VENV/.relaydesk-installed-requirements.txt"; then
    log "pip install --require-hashes into $E2E_VENV"
    rm -rf "$E2E_VENV"
    /usr/bin/python3 -m venv "$E2E_VENV"
    "$E2E_VENV/bin/pip" install --quiet --disable-pip-version-check --require-hashes --no-deps -r "$requirements"
    cp "$requirements" "$E2E_VENV/.relaydesk-installed-requirements.txt"
  fi
  if ! cmp -s "$pom" "$E2E_MAVEN_REPO/.relaydesk-offline-pom.xml"; then
    log "mvn dependency:go-offline into $E2E_MAVEN_REPO"
    mvn -B -q -f "$pom" -Dmaven.repo.local="$E2E_MAVEN_REPO" dependency:go-offline
    cp "$pom" "$E2E_MAVEN_REPO/.relaydesk-offline-pom.xml"
  fi
}

# fuzz MINUTES: builds every fuzz target as a libFuzzer executable with clang,
# ASan and UBSan (the whole core instrumented; no window), then runs each for
# its share of MINUTES on a working copy of its seed corpus. A crash or a
# sanitizer report keeps its input in build/fuzz/findings/NAME and fails.
fuzz() {
  local minutes=${1:-10}
  command -v clang++ >/dev/null || { PACKAGES+=(clang); install_missing; }
  local flags="-g -O1 -fno-omit-frame-pointer -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined"
  if [ ! -f "$FUZZ_BUILD_DIR/build.ninja" ]; then
    CC=clang CXX=clang++ cmake -S "$ROOT" -B "$FUZZ_BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
      "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=$flags" "-DCMAKE_EXE_LINKER_FLAGS=-fsanitize=address,undefined" \
      -DRELAYDESK_GUI=OFF -DRELAYDESK_FUZZ=ON
  fi
  cmake --build "$FUZZ_BUILD_DIR" -j "$JOBS" --target fuzz_targets
  local targets=() name failed=0
  for name in "$ROOT"/tests/fuzz/corpus/*/; do targets+=("$(basename "$name")"); done
  local seconds=$(( minutes * 60 / ${#targets[@]} ))
  for name in "${targets[@]}"; do
    local corpus="$FUZZ_BUILD_DIR/corpus/$name" findings="$FUZZ_BUILD_DIR/findings/$name"
    mkdir -p "$corpus" "$findings"
    cp -n "$ROOT/tests/fuzz/corpus/$name"/* "$corpus"/
    log "fuzz $name for ${seconds}s"
    if ! (cd "$findings" && UBSAN_OPTIONS=print_stacktrace=1 "$FUZZ_BUILD_DIR/tests/fuzz/fuzz_$name" \
            -max_total_time="$seconds" -max_len=4096 -print_final_stats=1 "$corpus" 2>"$findings/log.txt"); then
      log "fuzz $name: FINDING (input and log in $findings)"
      failed=1
    fi
    grep -E '^(stat::number_of_executed_units|stat::peak_rss_mb)|^#[0-9]+ *DONE' "$findings/log.txt" | sed "s/^/dev.sh: fuzz $name: /" >&2 || true
  done
  return $failed
}

# sanitizer_configure DIR PRESET: a g++ build with CMakePresets.json's asan or tsan
# preset (-O1 -g, the sanitizers, assertions kept: no -DNDEBUG), in DIR.
sanitizer_configure() {
  local dir=$1 preset=$2 launcher=()
  command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
  if [ ! -f "$dir/build.ninja" ]; then
    (cd "$ROOT" && cmake --preset "$preset" -B "$dir" "${launcher[@]}")
  fi
}

# sanitizer_reports DIR NAME: fails, printing them, when DIR holds reports. Every
# instrumented process writes its reports there (log_path) instead of to stderr, so a
# report from a relaydesk that an e2e test started and stopped counts as much as one
# from a test, and no test's expected output is disturbed by one.
sanitizer_reports() {
  local dir=$1 name=$2 report found=0
  for report in "$dir"/*; do
    [ -s "$report" ] || continue
    found=$((found + 1))
    log "$name report $report:"
    cat "$report" >&2
  done
  [ $found -eq 0 ] && { log "$name: no reports"; return 0; }
  log "$name: $found report(s) in $dir"
  return 1
}

# check_sanitizers: the whole suite under AddressSanitizer and UndefinedBehaviorSanitizer
# (build/asan), then the engine and broker tests under ThreadSanitizer (build/tsan),
# each process with the suppressions of tests/sanitizers/ (uninstrumented Qt and system
# libraries only, each with its reason). Fails on a failed test or on any report. Not
# part of `test` or CI: the instrumented builds take hours on two cores.
check_sanitizers() {
  local supp=$ROOT/tests/sanitizers status=0 logs
  sanitizer_configure "$ASAN_BUILD_DIR" asan
  build "$ASAN_BUILD_DIR"
  install_node_modules "$ASAN_BUILD_DIR/tests/e2e/js"
  install_node_modules "$ASAN_BUILD_DIR/tests/core/connections/sqslite"
  install_sdk_packages
  logs=$ASAN_BUILD_DIR/sanitizer-reports
  rm -rf "$logs" && mkdir -p "$logs"
  # Tests that cannot run instrumented: (-E REGEX) here, with each one's reason. None so far.
  local excluded=()
  ASAN_OPTIONS="log_path=$logs/asan:detect_leaks=1:check_initialization_order=1:detect_stack_use_after_return=1" \
  UBSAN_OPTIONS="log_path=$logs/ubsan:print_stacktrace=1:halt_on_error=1:suppressions=$supp/ubsan.supp" \
  LSAN_OPTIONS="suppressions=$supp/lsan.supp:print_suppressions=0" \
  QT_QPA_PLATFORM=offscreen \
    ctest --test-dir "$ASAN_BUILD_DIR" --output-on-failure -j "$JOBS" "${excluded[@]}" || status=1
  sanitizer_reports "$logs" "ASan/UBSan" || status=1

  sanitizer_configure "$TSAN_BUILD_DIR" tsan
  build "$TSAN_BUILD_DIR" engine_tests broker_tests
  logs=$TSAN_BUILD_DIR/sanitizer-reports
  rm -rf "$logs" && mkdir -p "$logs"
  TSAN_OPTIONS="log_path=$logs/tsan:halt_on_error=0:second_deadlock_stack=1:suppressions=$supp/tsan.supp" \
    ctest --test-dir "$TSAN_BUILD_DIR" --output-on-failure -j "$JOBS" -L '^(engine_tests|broker_tests)$' || status=1
  sanitizer_reports "$logs" "TSan" || status=1
  return $status
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

# build_image [--update-lock]: the image from the package (installer/image/build_image.sh),
# then its check (tests/image/check_image.sh) with the Service Bus SDK of tests/e2e/js's lockfile,
# then the Testcontainers examples of contrib/testcontainers (tests/image/check_testcontainers.sh).
IMAGE_DIR=${RELAYDESK_IMAGE_DIR:-$ROOT/build/image}
IMAGE_PACKAGES=(mmdebstrap umoci skopeo podman runc uidmap python3-venv maven openjdk-17-jdk-headless)
build_image() {
  local deb start=$SECONDS
  deb=$(ls "$RELEASE_BUILD_DIR"/relaydesk_*_amd64.deb)
  "$ROOT/installer/image/build_image.sh" "$deb" "$IMAGE_DIR" "$@"
  log "image: built in $((SECONDS - start)) s"
  mkdir -p "$IMAGE_DIR/js"
  cp "$ROOT/tests/e2e/js/package.json" "$ROOT/tests/e2e/js/package-lock.json" "$IMAGE_DIR/js/"
  install_node_modules "$IMAGE_DIR/js"
  start=$SECONDS
  "$ROOT/tests/image/check_image.sh" "$IMAGE_DIR" "$IMAGE_DIR/js/node_modules"
  log "image: checked in $((SECONDS - start)) s"
  start=$SECONDS
  # shellcheck disable=SC1091
  "$ROOT/tests/image/check_testcontainers.sh" "$(. "$IMAGE_DIR/image.env" && echo "$IMAGE")" "$ROOT/build/testcontainers"
  log "image: Testcontainers examples run in $((SECONDS - start)) s"
}

# fresh_root DIR: a brand-new Debian 12 root in DIR, kept there, with a clean clone of HEAD
# (../shared/tools/fresh-debian --keep DIR -- true). On its first use the tool makes its cached
# root with mmdebstrap under a name ending in ".tmp"; mmdebstrap picks its output format from the
# extension and writes a directory for that name, not a tarball, so the tool's own `tar -xf`
# then fails on every run. Until the tool is mended, such a cache directory is packed into
# the tarball the tool expects and the root is made again.
fresh_root() {
  local dir=$1 tool=$ROOT/../shared/tools/fresh-debian cache=/var/tmp/fresh-debian-bookworm.tar
  (cd "$ROOT" && "$tool" --keep "$dir" -- true) && return 0
  [ -d "$cache" ] || return 1
  log "packing fresh-debian's cached root (a directory, see fresh_root) into $cache"
  tar -C "$cache" -cf "$cache.packing" . && rm -rf --one-file-system "$cache" && mv "$cache.packing" "$cache"
  rm -rf --one-file-system "$dir" && mkdir -p "$dir"
  (cd "$ROOT" && "$tool" --keep "$dir" -- true)
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
  fresh_root "$root"
  cp "$deb" "$root/tmp/"
  (cd "$ROOT" && "$tool" --reuse "$root" -- installer/check-installed.sh "/tmp/$(basename "$deb")") || status=$?
  [ -f "$root/tmp/relaydesk-window.png" ] && cp "$root/tmp/relaydesk-window.png" "$RELEASE_BUILD_DIR/check-package-window.png" \
    && log "the window as started from the desktop entry: $RELEASE_BUILD_DIR/check-package-window.png"
  rm -rf --one-file-system "$root"
  return $status
}

# check_fresh [--keep DIR]: `installer/dev.sh test` in a brand-new Debian 12 root on a
# clean clone of HEAD. The root gets this machine's extra certificate authorities
# (/usr/local/share/ca-certificates: a TLS-inspecting proxy's, where outgoing TLS
# goes through one) before the run, so that npm reaches its registry as the machine
# does; nothing else of the machine goes in.
check_fresh() {
  local tool=$ROOT/../shared/tools/fresh-debian root keep=""
  if [ "${1:-}" = "--keep" ]; then keep=$2; root=$2; else root=$(mktemp -d /var/tmp/relaydesk-check-fresh.XXXXXX); fi
  fresh_root "$root"
  if compgen -G "/usr/local/share/ca-certificates/*.crt" >/dev/null; then
    cp /usr/local/share/ca-certificates/*.crt "$root/usr/local/share/ca-certificates/"
    chroot "$root" update-ca-certificates >/dev/null
  fi
  local status=0 start=$SECONDS
  (cd "$ROOT" && "$tool" --reuse "$root" -- installer/dev.sh test) || status=$?
  log "check-fresh: exit status $status after $(( (SECONDS - start) / 60 )) min $(( (SECONDS - start) % 60 )) s"
  [ -n "$keep" ] || rm -rf --one-file-system "$root"
  return $status
}

has_display() {
  [ -n "${DISPLAY:-}" ] || [ -n "${WAYLAND_DISPLAY:-}" ]
}

command=${1:-}
[ $# -gt 0 ] && shift
case "$command" in
  run)   # builds only the program and its data, not the tests
    install_missing
    configure "$BUILD_DIR"
    build "$BUILD_DIR" relaydesk
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
    configure "$BUILD_DIR"
    build "$BUILD_DIR"
    run_tests "$BUILD_DIR"
    # Everything but ui/ builds without any GUI module (RELAYDESK_GUI=OFF); there the
    # tests whose program differs run: the command line and the real clients.
    configure "$HEADLESS_BUILD_DIR" -DRELAYDESK_GUI=OFF
    build "$HEADLESS_BUILD_DIR"
    run_tests "$HEADLESS_BUILD_DIR"
    ;;
  build)
    install_missing
    configure "$BUILD_DIR"
    build "$BUILD_DIR"
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
  image)   # [--update-lock]
    PACKAGES+=("${IMAGE_PACKAGES[@]}")
    install_missing
    build_package
    build_image "$@"
    ;;
  fuzz)   # [MINUTES]
    install_missing
    fuzz "$@"
    ;;
  check-sanitizers)
    install_missing
    check_sanitizers
    ;;
  check-fresh)   # [--keep DIR]: leave the root there afterwards (fresh-debian --reuse DIR runs more in it)
    check_fresh "$@"
    ;;
  *)
    echo "usage: installer/dev.sh run [ARGS...] | test | build | image [--update-lock] | fuzz [MINUTES] | check-sanitizers | check-fresh | package | check-package" >&2
    exit 2
    ;;
esac
