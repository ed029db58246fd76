#!/bin/sh
# SPDX-License-Identifier: MIT
# metainfo_test.sh METAINFO VERSION DESKTOP: the AppStream metainfo validates
# (appstreamcli fails on errors and warnings), its newest release is the
# project's version, its screenshots are in the repository, and it launches the desktop entry shipped beside it.
set -u
metainfo=$1 version=$2 desktop=$3
appstreamcli validate --no-net "$metainfo" || exit 1
newest=$(sed -n 's/.*<release version="\([^"]*\)".*/\1/p' "$metainfo" | head -n 1)
[ "$newest" = "$version" ] || { echo "newest <release> is '$newest', the project is $version" >&2; exit 1; }
launchable=$(sed -n 's/.*<launchable type="desktop-id">\([^<]*\)<.*/\1/p' "$metainfo")
[ "$launchable" = "$(basename "$desktop")" ] || { echo "launchable '$launchable' is not $(basename "$desktop")" >&2; exit 1; }
id=$(sed -n 's/.*<id>\([^<]*\)<.*/\1/p' "$metainfo")
grep -qx "Icon=$id" "$desktop" || { echo "$desktop does not name the icon $id" >&2; exit 1; }
# The screenshots are the repository's files (from tests/ui/editor_screenshot), addressed by URL.
root=$(cd "$(dirname "$metainfo")/.." && pwd)
count=0
for url in $(sed -n 's/.*<image>\([^<]*\)<.*/\1/p' "$metainfo"); do
    file=$root/${url#*/relaydesk/relaydesk/main/}
    [ -s "$file" ] || { echo "screenshot $url: no $file in the repository" >&2; exit 1; }
    count=$((count + 1))
done
[ $count -ge 2 ] || { echo "$count screenshots, at least 2 wanted" >&2; exit 1; }
echo "metainfo valid, $count screenshots, release $newest, id $id"
