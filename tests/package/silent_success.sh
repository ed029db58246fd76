#!/bin/sh
# SPDX-License-Identifier: MIT
# silent_success.sh COMMAND ARGS...: passes when COMMAND exits 0 and prints nothing
# (desktop-file-validate prints its errors, warnings and hints, and exits 0 on hints).
output=$("$@" 2>&1)
status=$?
if [ $status -ne 0 ] || [ -n "$output" ]; then
    printf '%s\n' "$* exited $status and said:" "$output" >&2
    exit 1
fi
