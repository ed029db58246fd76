#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""A measurement, not a test: COUNT sequential connects to
a running `relaydesk serve` at HOST:PORT, each held open, and how long each
connect() took; prints p50/p99/max and how many took over 0.5 s (a SYN dropped
by a full accept queue is resent after 1 s). Compare `nstat -az
TcpExtListenOverflows` before and after.

    tests/bench/connect_latency.py 127.0.0.1 PORT 600
"""
import socket
import sys
import time


def main():
    host, port, count = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    held, times = [], []
    for _ in range(count):
        started = time.perf_counter()
        held.append(socket.create_connection((host, port)))
        times.append(time.perf_counter() - started)
    times.sort()
    at = lambda q: times[min(len(times) - 1, int(q * len(times)))]
    print("%d connects: p50 %.4f s, p99 %.4f s, max %.4f s; over 0.5 s: %d" % (
        count, at(0.5), at(0.99), times[-1], sum(t > 0.5 for t in times)))
    for sock in held:
        sock.close()


if __name__ == "__main__":
    main()
