#!/bin/sh
# with_secret_service.sh COMMAND...: runs COMMAND in a D-Bus session of its own
# with gnome-keyring-daemon's secret service, its login keyring created and
# unlocked with a throwaway password in a throwaway HOME, never the user's
# (Debian: dbus, gnome-keyring) — connection_secrets_test.
set -eu
home=$(mktemp -d)
trap 'rm -rf "$home"' EXIT
HOME=$home dbus-run-session -- sh -c \
  'printf "relaydesk-test" | gnome-keyring-daemon --unlock --components=secrets >/dev/null && exec "$@"' sh "$@"
