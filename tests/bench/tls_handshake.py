#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""A measurement, not a test: COUNT sequential connections to a running
`relaydesk serve` TLS port at HOST:PORT, each a TCP connect plus a full TLS
handshake (no session resumption) trusting CAFILE, then closed; and as many
plain TCP connects to the same port for reference. Prints p50/p99 of each
(the handshake's cost as a client on this machine sees it, both ends'
CPU included).

    tests/bench/tls_handshake.py 127.0.0.1 PORT CAFILE 500
"""
import socket
import ssl
import sys
import time


def timed(count, connect):
    times = []
    for _ in range(count):
        started = time.perf_counter()
        connect().close()
        times.append(time.perf_counter() - started)
    times.sort()
    return times[len(times) // 2] * 1000, times[min(len(times) - 1, int(0.99 * len(times)))] * 1000


def main():
    host, port, cafile, count = sys.argv[1], int(sys.argv[2]), sys.argv[3], int(sys.argv[4])
    context = ssl.create_default_context(cafile=cafile)

    def tls():
        return context.wrap_socket(socket.create_connection((host, port)), server_hostname="localhost")

    plain = timed(count, lambda: socket.create_connection((host, port)))
    handshake = timed(count, tls)
    print("%d TCP connects: p50 %.3f ms, p99 %.3f ms; %d TCP connects + TLS handshakes: p50 %.3f ms, p99 %.3f ms"
          % (count, plain[0], plain[1], count, handshake[0], handshake[1]))


if __name__ == "__main__":
    main()
