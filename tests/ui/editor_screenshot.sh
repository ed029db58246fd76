#!/bin/sh
# SPDX-License-Identifier: MIT
# Screenshots of the real window under a virtual X display (no display needed):
#   tests/ui/editor_screenshot.sh BUILD_DIR/tests/ui/editor_screenshot [OUTDIR] [WIDTHxHEIGHT] [FONTSCALE]
# Writes OUTDIR/editor-*.png (default OUTDIR: ./screenshots) for a person to look at.
set -eu
program=${1:?usage: editor_screenshot.sh PROGRAM [OUTDIR] [WIDTHxHEIGHT]}
outdir=${2:-screenshots}
size=${3:-1600x1000}
font_scale=${4:-1}
if ! command -v xvfb-run >/dev/null 2>&1; then
    echo "editor_screenshot.sh: xvfb-run is not installed (Debian: apt-get install xvfb xauth)" >&2
    exit 1
fi
screen_width=${size%x*}
screen_height=${size#*x}
QT_QPA_PLATFORM=xcb exec xvfb-run -a -s "-screen 0 ${screen_width}x${screen_height}x24 -nolisten tcp" \
    "$program" "$outdir" "$size" "$font_scale"
