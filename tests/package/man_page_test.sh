#!/bin/sh
# SPDX-License-Identifier: MIT
# man_page_test.sh PAGE: relaydesk(1), generated from the program's --help,
# renders with man without a warning and covers every command and option of
# docs/behaviour.md §8.1.
set -u
page=$1
warnings=$(MANWIDTH=80 man --warnings -E UTF-8 -l "$page" 2>&1 >/dev/null)
[ -z "$warnings" ] || { printf 'man warns:\n%s\n' "$warnings" >&2; exit 1; }
text=$(MANWIDTH=200 MAN_KEEP_FORMATTING=0 man -E UTF-8 -l "$page" 2>/dev/null | col -b)
missing=""
for word in "relaydesk serve" "relaydesk policy explain" "relaydesk policy validate" "relaydesk policy render" \
            "relaydesk policy diff" --db --bind --port --config --clock --time-scale --jitter --seed --auto-confirm --allow-host --credentials \
            --preset --protocol --format --out --size --compare --compare-preset --help --version; do
    printf '%s\n' "$text" | grep -qF -e "$word" || missing="$missing '$word'"
done
[ -z "$missing" ] || { echo "the man page does not mention:$missing" >&2; exit 1; }
echo "man page renders without warnings and covers docs/behaviour.md §8.1"
