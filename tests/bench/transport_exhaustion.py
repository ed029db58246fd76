#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""A measurement, not a test: resident size and
descriptors of `relaydesk serve` under hostile connections. Starts BINARY
serve (`ulimit -n 1024`, soft and hard, as on a usual desktop) on a free
port and prints, for each case, the serve process's resident size (now and
peak), open descriptors, CPU seconds used over the following 2 s, and
whether a fresh GET /api/v1/clock is answered:
  - a 300 MiB body with Content-Length, streamed;
  - a 300 MiB chunked body, streamed;
  - 1 065 idle connections held open.

    tests/bench/transport_exhaustion.py build/dev/app/relaydesk
"""
import os
import socket
import subprocess
import sys
import time

MIB = 1024 * 1024


def status(pid):
    fields = {}
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            key, _, value = line.partition(":")
            fields[key] = value.strip()
    return fields


def cpu_seconds(pid):
    with open("/proc/%d/stat" % pid) as f:
        rest = f.read().rsplit(")", 1)[1].split()
    return (int(rest[11]) + int(rest[12])) / os.sysconf("SC_CLK_TCK")


def report(name, pid, port):
    before = cpu_seconds(pid)
    time.sleep(2)
    cpu = cpu_seconds(pid) - before
    fields = status(pid)
    fds = len(os.listdir("/proc/%d/fd" % pid))
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=5) as probe:
            probe.sendall(b"GET /api/v1/clock HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
            answer = probe.recv(100).split(b"\r\n")[0].decode()
    except OSError as error:
        answer = "no answer (%s)" % error
    print("%-34s RSS %7s  peak %7s  fds %5d  CPU %.2f s in 2 s  probe: %s" % (
        name, fields["VmRSS"], fields["VmHWM"], fds, cpu, answer), flush=True)


def stream(port, head, piece, total):
    sock = socket.create_connection(("127.0.0.1", port), timeout=30)
    sent = 0
    try:
        sock.sendall(head)
        while sent < total:
            sock.sendall(piece)
            sent += len(piece)
    except OSError:
        pass
    try:
        answer = sock.recv(100).split(b"\r\n")[0].decode()
    except OSError as error:
        answer = "reset (%s)" % error
    sock.close()
    return sent, answer


def main():
    binary = sys.argv[1]
    process = subprocess.Popen(["sh", "-c", 'ulimit -n 1024 && exec "$0" serve --port 0 --db :memory:', binary],
                               stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        line = process.stdout.readline().strip()
        port = int(line.rsplit(":", 1)[1])
        pid = process.pid
        report("started", pid, port)

        body = 300 * MIB
        sent, answer = stream(port, b"POST /api/v1/queues HTTP/1.1\r\nHost: localhost\r\nContent-Length: %d\r\n\r\n" % body,
                              b"x" * MIB, body)
        print("  Content-Length 300 MiB: %d MiB sent before the server stopped reading; answer %r" % (sent // MIB, answer))
        report("after a 300 MiB Content-Length body", pid, port)

        chunk = b"%x\r\n" % MIB + b"x" * MIB + b"\r\n"
        sent, answer = stream(port, b"POST /api/v1/queues HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\n\r\n",
                              chunk, body)
        print("  chunked 300 MiB: %d MiB sent before the server stopped reading; answer %r" % (sent // MIB, answer))
        report("after a 300 MiB chunked body", pid, port)

        idle = []
        for _ in range(1065):
            try:
                idle.append(socket.create_connection(("127.0.0.1", port), timeout=5))
            except OSError as error:
                print("  connect failed: %s" % error)
                break
        refused = 0
        for sock in idle:
            sock.setblocking(False)
            try:
                if sock.recv(100).startswith(b"HTTP/1.1 503"):
                    refused += 1
            except BlockingIOError:
                pass
        print("  1065 idle connections: %d answered 503 at once (over the cap)" % refused)
        report("with 1065 idle connections", pid, port)
        for sock in idle:
            sock.close()
        report("after they closed", pid, port)
    finally:
        process.terminate()
        process.wait(timeout=30)


if __name__ == "__main__":
    main()
