#!/bin/bash
# SPDX-License-Identifier: MIT
# completion_test.sh SCRIPT: the bash completion, loaded into a plain bash,
# completes commands, subcommands, options and option values: each case
# drives _relaydesk through COMP_WORDS/COMP_CWORD as bash's <TAB> does.
set -u
script=$1
failures=0
# expect "WORDS TYPED SO FAR" "EXPECTED COMPLETIONS": the last word is the one being completed.
expect() {
    local got
    got=$(bash --norc --noprofile -c '
        source "$1" || exit 3
        complete -p relaydesk >/dev/null || exit 4
        read -r -a COMP_WORDS <<<"$2"
        [[ $2 == *" " ]] && COMP_WORDS+=("")
        COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
        _relaydesk
        printf "%s\n" "${COMPREPLY[@]}" | sort | tr "\n" " "' completion "$script" "$1")
    if [ "${got% }" != "$2" ]; then
        printf 'FAIL: "%s<TAB>" completes to "%s", expected "%s"\n' "$1" "${got% }" "$2" >&2
        failures=$((failures + 1))
    else
        printf 'ok: "%s<TAB>" -> %s\n' "$1" "$2"
    fi
}
expect "relaydesk pol" "policy"
expect "relaydesk s" "serve"
expect "relaydesk policy ex" "explain"
expect "relaydesk policy " "diff explain render scan validate"
expect "relaydesk --ver" "--version"
expect "relaydesk serve --cl" "--clock"
expect "relaydesk serve --al" "--allow-host"
expect "relaydesk serve --cr" "--credentials"
expect "relaydesk serve --clock " "real scaled virtual"
expect "relaydesk serve --config /dev/nul" "/dev/null"
expect "relaydesk policy validate /dev/nul" "/dev/null"
expect "relaydesk serve --port " ""
expect "relaydesk policy explain --pro" "--protocol"
expect "relaydesk policy explain --protocol h" "http https"
expect "relaydesk policy explain --format " "json text"
expect "relaydesk policy explain --preset sns-d" "sns-default"
expect "relaydesk policy render --compare-preset zaqar-d" "zaqar-default"
expect "relaydesk policy render --ou" "--out"
[ $failures -eq 0 ]
