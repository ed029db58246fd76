#!/bin/sh
# SPDX-License-Identifier: MIT
# metainfo_test.sh METAINFO VERSION DESKTOP: the AppStream metainfo validates
# (appstreamcli fails on errors and warnings), its newest release is the
# project's version, and it launches the desktop entry shipped beside it.
set -u
metainfo=$1 version=$2 desktop=$3
appstreamcli validate --no-net "$metainfo" || exit 1
newest=$(sed -n 's/.*<release version="\([^"]*\)".*/\1/p' "$metainfo" | head -n 1)
[ "$newest" = "$version" ] || { echo "newest <release> is '$newest', the project is $version" >&2; exit 1; }
launchable=$(sed -n 's/.*<launchable type="desktop-id">\([^<]*\)<.*/\1/p' "$metainfo")
[ "$launchable" = "$(basename "$desktop")" ] || { echo "launchable '$launchable' is not $(basename "$desktop")" >&2; exit 1; }
id=$(sed -n 's/.*<id>\([^<]*\)<.*/\1/p' "$metainfo")
grep -qx "Icon=$id" "$desktop" || { echo "$desktop does not name the icon $id" >&2; exit 1; }
echo "metainfo valid, release $newest, id $id"
