#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# check-installed.sh PATH/relaydesk_VERSION_amd64.deb: installs the package with apt on this
# (fresh, root) Debian 12 system and runs the program from the installed files only, then
# removes it and checks that nothing of it stays in /usr. Run by `installer/dev.sh check-package`
# inside ../shared/tools/fresh-debian; it changes the system it runs on, so not elsewhere.
# Leaves the window's screenshot in /tmp/relaydesk-window.png.
set -euo pipefail
deb=$1
step() { printf '\n== %s\n' "$*"; }
fail() { printf 'check-installed: FAILED: %s\n' "$*" >&2; exit 1; }
export DEBIAN_FRONTEND=noninteractive
cd /tmp

step "tools for the checks only (not the package's dependencies)"
apt-get update -qq
apt-get install -y -qq --no-install-recommends awscli xvfb xauth x11-apps x11-utils netpbm file man-db >/dev/null
home_before=$(find /root /home -xdev 2>/dev/null | sort)

step "apt-get install $deb"
apt-get install -y --no-install-recommends "$deb" >/tmp/apt-install.log 2>&1 || { cat /tmp/apt-install.log; fail "apt-get install"; }
grep -E '^(Setting up relaydesk|[0-9]+ upgraded)' /tmp/apt-install.log
dpkg-query -W -f='${Package} ${Version} ${Status}\n' relaydesk
dpkg-query -W -f='Depends: ${Depends}\n' relaydesk
[ "$(find /root /home -xdev 2>/dev/null | sort)" = "$home_before" ] || fail "installing wrote into a home directory"
echo "nothing written into /root or /home"
dpkg -L relaydesk | sort >/tmp/relaydesk-files
echo "installed files ($(while read -r p; do [ -d "$p" ] || echo "$p"; done </tmp/relaydesk-files | wc -l)), icons aside:"
while read -r path; do [ -d "$path" ] || echo "  $path"; done </tmp/relaydesk-files | grep -v '/icons/hicolor/[0-9]'
ls /usr/share/icons/hicolor/*/apps/io.github.relaydesk.Relaydesk.* | sed 's|/usr/share/icons/hicolor/||; s|/apps/.*||' | tr '\n' ' '; echo

step "relaydesk --version"
relaydesk --version

step "relaydesk policy explain --preset sns-default"
relaydesk policy explain --preset sns-default

step "relaydesk policy render --preset sns-example --out /tmp/x.png"
relaydesk policy render --preset sns-example --out /tmp/x.png
file /tmp/x.png

step "man relaydesk, bash completion"
MANWIDTH=80 man relaydesk 2>&1 | head -n 12
bash -c 'source /usr/share/bash-completion/completions/relaydesk; COMP_WORDS=(relaydesk pol); COMP_CWORD=1; _relaydesk;
         echo "relaydesk pol<TAB> -> ${COMPREPLY[*]}"; [ "${COMPREPLY[*]}" = policy ]'
ls /usr/share/relaydesk/examples/

step "relaydesk serve --port 0 --db :memory: --config /usr/share/relaydesk/examples/broker-config.json, and the aws CLI"
rm -f /tmp/serve.ready
relaydesk serve --port 0 --db :memory: --config /usr/share/relaydesk/examples/broker-config.json \
    --ready-file /tmp/serve.ready >/tmp/serve.out 2>/tmp/serve.err &
serve=$!
# The ready file is written whole once every port listens: its "http" member is the endpoint.
for _ in $(seq 1 300); do [ -s /tmp/serve.ready ] && break; kill -0 $serve 2>/dev/null || break; sleep 0.1; done
cat /tmp/serve.out
url=$(sed -n 's/.*"http":"\([^"]*\)".*/\1/p' /tmp/serve.ready 2>/dev/null)
[ -n "$url" ] || { cat /tmp/serve.err; fail "serve did not start"; }
export AWS_ACCESS_KEY_ID=test AWS_SECRET_ACCESS_KEY=test AWS_DEFAULT_REGION=us-east-1
aws --version
aws --endpoint-url "$url" sqs create-queue --queue-name installed-check
aws --endpoint-url "$url" sqs list-queues
kill -TERM $serve
wait $serve || fail "serve exited $? on SIGTERM"

step "the window, started from the desktop entry's Exec line under xvfb-run"
desktop=/usr/share/applications/io.github.relaydesk.Relaydesk.desktop
exec_line=$(sed -n 's/^Exec=//p' "$desktop" | sed 's/ *%[fFuUdDnNickvm]//g')
echo "Exec=$exec_line"
export HOME=/tmp/home XDG_RUNTIME_DIR=/tmp/runtime
mkdir -p "$HOME" "$XDG_RUNTIME_DIR" && chmod 700 "$XDG_RUNTIME_DIR"
# shellcheck disable=SC2016
xvfb-run -a -s '-screen 0 1280x800x24 -nolisten tcp' bash -c '
    '"$exec_line"' >/tmp/window.log 2>&1 &
    app=$!
    for _ in $(seq 1 300); do
        xwininfo -root -tree 2>/dev/null | grep -q "\"Relaydesk\"" && break
        kill -0 $app 2>/dev/null || break
        sleep 0.1
    done
    sleep 2   # let the first paint finish before the grab
    xwininfo -root -tree | grep "\"Relaydesk\"" || { cat /tmp/window.log; exit 1; }
    xwd -root -silent | xwdtopnm 2>/dev/null | pnmtopng >/tmp/relaydesk-window.png
    kill -TERM $app; wait $app || true' || fail "the window did not open"
file /tmp/relaydesk-window.png
echo "the window's data folder: $(find "$HOME" -name '*.db' | head -n 3)"

step "apt-get remove relaydesk"
apt-get remove -y relaydesk 2>&1 | grep -E '^(Removing|E:)' || true
left=""
while read -r path; do
    [ -e "$path" ] || continue
    [ -d "$path" ] && dpkg -S "$path" >/dev/null 2>&1 && continue   # a directory other packages own too
    left="$left $path"
done </tmp/relaydesk-files
stray=$(find /usr -iname '*relaydesk*' | tr '\n' ' ')
[ -z "$left$stray" ] || fail "left behind in /usr:$left $stray"
echo "nothing of relaydesk is left in /usr ($(wc -l </tmp/relaydesk-files) paths were installed)"
echo
echo "check-installed: all checks passed"
