#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""A measurement, not a test: the Service Bus management API's operations per second.
Starts `RELAYDESK serve` on a fresh database file (WAL, synchronous=FULL) with a free
management port and the local CA of a scratch data folder, then for SECONDS each, on ONE
keep-alive connection: a loop of create queue (PUT, ATOM body) + get it (GET) + delete it
(DELETE), over HTTPS trusting the CA and over plain HTTP on the same port; then a GET of the
namespace alone (the trivial reference). Prints operations/s for each and the serve process's
CPU seconds during it (from /proc/PID/stat).

    tests/bench/management_bench.py build/dev/app/relaydesk [SECONDS=5]
"""
import http.client
import os
import shutil
import ssl
import subprocess
import sys
import tempfile
import time

QUEUE_BODY = (b'<entry xmlns="http://www.w3.org/2005/Atom"><content type="application/xml">'
              b'<QueueDescription xmlns="http://schemas.microsoft.com/netservices/2010/10/servicebus/connect">'
              b'<LockDuration>PT30S</LockDuration></QueueDescription></content></entry>')
HEADERS = {"Authorization": "SharedAccessSignature sr=https%3A%2F%2Flocalhost&sig=x&se=4102444800"
                            "&skn=RootManageSharedAccessKey"}
API = "?api-version=2021-05"


def cpu_seconds(pid):
    with open("/proc/%d/stat" % pid) as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def call(connection, method, path, body=None, want=200):
    headers = dict(HEADERS, **({"Content-Type": "application/atom+xml;type=entry;charset=utf-8"} if body else {}))
    connection.request(method, path + API, body=body, headers=headers)
    reply = connection.getresponse()
    reply.read()
    if reply.status != want:
        raise SystemExit("%s %s answered %d" % (method, path, reply.status))


def crud(connection, number):
    name = "/bench-%d" % number
    call(connection, "PUT", name, QUEUE_BODY, want=201)
    call(connection, "GET", name)
    call(connection, "DELETE", name)
    return 3


def namespace(connection, number):
    call(connection, "GET", "/$namespaceinfo")
    return 1


def measure(label, connect, loop, seconds, pid):
    connection = connect()
    operations, number = 0, 0
    cpu = cpu_seconds(pid)
    started = time.perf_counter()
    while time.perf_counter() - started < seconds:
        operations += loop(connection, number)
        number += 1
    elapsed = time.perf_counter() - started
    connection.close()
    print("%-44s %8.0f ops/s   serve CPU %.2f s" % (label, operations / elapsed, cpu_seconds(pid) - cpu))


def main():
    binary, seconds = sys.argv[1], float(sys.argv[2]) if len(sys.argv) > 2 else 5
    work = tempfile.mkdtemp(prefix="relaydesk-management-bench-")
    env = dict(os.environ, XDG_DATA_HOME=work)   # the bench's own local CA, not the user's
    ca = subprocess.run([binary, "tls", "ca"], env=env, check=True, capture_output=True, text=True).stdout.strip()
    serve = subprocess.Popen([binary, "serve", "--db", os.path.join(work, "broker.db"), "--port", "0", "--amqp-port", "off",
                              "--amqps-port", "off", "--sb-management-port", "0"],
                             env=env, stdout=subprocess.PIPE, text=True)
    try:
        serve.stdout.readline()
        port = int(serve.stdout.readline().strip().rsplit(":", 1)[1])   # https://127.0.0.1:PORT
        context = ssl.create_default_context(cafile=ca)
        https = lambda: http.client.HTTPSConnection("localhost", port, context=context)   # noqa: E731
        plain = lambda: http.client.HTTPConnection("localhost", port)   # noqa: E731
        measure("create+get+delete queue, HTTPS keep-alive", https, crud, seconds, serve.pid)
        measure("create+get+delete queue, HTTP keep-alive", plain, crud, seconds, serve.pid)
        measure("GET /$namespaceinfo, HTTPS keep-alive", https, namespace, seconds, serve.pid)
        measure("GET /$namespaceinfo, HTTP keep-alive", plain, namespace, seconds, serve.pid)
    finally:
        serve.terminate()
        serve.wait()
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
