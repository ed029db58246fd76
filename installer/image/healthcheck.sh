#!/bin/bash
# SPDX-License-Identifier: MIT
# The image's HEALTHCHECK (installed as /usr/local/bin/relaydesk-healthcheck):
# GET /health on the broker's own HTTP port; healthy (exit 0) only on 200, which
# /health answers once every port listens and not while stopping
# (docs/behaviour.md §8.1). bash's /dev/tcp: the image needs no curl.
port=${RELAYDESK_PORT:-9911}
exec 3<>"/dev/tcp/127.0.0.1/$port" || exit 1
printf 'GET /health HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n' >&3
IFS= read -r -t 5 status <&3 || exit 1
[[ $status == "HTTP/1.1 200 "* ]]
