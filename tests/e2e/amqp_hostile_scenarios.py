# SPDX-License-Identifier: MIT
"""Hostile AMQP peers against the Service Bus port (docs/reliability.md
"AMQP port"): a frame larger than the broker announced, a message larger
than its link announced, a peer that never presents a token under
--credentials, connections past the cap and connections that never open. Each is refused with AMQP's own error and the broker's memory
(its peak, /proc/PID/status VmHWM) stays within a bound far below what the
peer sent. Raw sockets through amqp_wire: no client library sends these."""
import json
import os
import struct
import tempfile
import unittest
import urllib.parse

import amqp_wire as wire
from relaydesk_harness import RelaydeskServer, binary_from_environment, read_until_closed

BINARY = binary_from_environment()
MIB = 1024 * 1024
SENT = 300 * MIB          # what a hostile peer pushes
BOUND = 64 * MIB          # the most the broker's peak may grow meanwhile
FRAME = 65536             # the max-frame-size the broker announces
MESSAGE = 262144          # the max-message-size of a queue's link
TOKEN_REQUEST = 65536     # the max-message-size of $cbs


class AmqpServer(RelaydeskServer):
    def __enter__(self):
        super().__enter__()
        line = self.process.stdout.readline().strip()
        self.amqp_port = urllib.parse.urlparse(line.split(" on ", 1)[1]).port
        return self

    def peak(self):
        with open("/proc/%d/status" % self.process.pid) as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) * 1024
        raise AssertionError("no VmHWM")


def read_to_close(peer):
    """What the broker sent until it closed the connection."""
    return read_until_closed(peer.socket)


def push(peer, total):
    """Sends up to `total` bytes of filler until the broker stops taking them."""
    chunk = b"\x00" * MIB
    try:
        for _ in range(total // MIB):
            peer.send(chunk)
    except OSError:
        pass


class AmqpHostileScenarios(unittest.TestCase):
    def server(self, *args):
        server = AmqpServer(BINARY, *args)
        server.__enter__()
        self.addCleanup(server.__exit__, None, None, None)
        return server

    def credentials(self):
        folder = tempfile.TemporaryDirectory()
        self.addCleanup(folder.cleanup)
        path = os.path.join(folder.name, "credentials.json")
        with open(path, "w") as file:
            json.dump({"sharedAccessKeys": {"RootManageSharedAccessKey": "relaydesk-hostile-key"}}, file)
        return self.server("--credentials", path)

    def session(self, server):
        """A peer past SASL (ANONYMOUS) and open, with one session begun."""
        peer = wire.Peer(server.amqp_port)
        self.addCleanup(peer.close)
        peer.sasl()
        peer.open()
        peer.begin()
        return peer

    def assert_oversized_frame_refused(self, server, peer):
        before = server.peak()
        peer.send(struct.pack(">IBBH", 2 * 1024 * MIB, 2, 0, 0))   # a frame of 2 GiB, announced
        _, fields = peer.read_until(wire.CLOSE)
        condition, description = wire.error_of(fields, 0)
        self.assertEqual(condition, "amqp:connection:framing-error", description)
        push(peer, SENT)
        peer.close()
        self.assertLess(server.peak() - before, BOUND)

    def test_frame_past_the_announced_size_closes_the_connection(self):
        server = self.server()
        peer = wire.Peer(server.amqp_port)
        peer.sasl()
        opened = peer.open()
        self.assertEqual(opened[2], FRAME)   # max-frame-size
        peer.begin()
        self.assert_oversized_frame_refused(server, peer)

    def test_frame_past_the_announced_size_before_a_token(self):
        server = self.credentials()
        peer = wire.Peer(server.amqp_port)
        peer.sasl()
        peer.open()
        self.assert_oversized_frame_refused(server, peer)

    def test_message_past_the_link_limit_detaches_at_once(self):
        server = self.server()
        status, body = server.api("POST", "/servicebus/queues", {"Name": "big"})
        self.assertEqual(status, 201, body)
        peer = self.session(server)
        attached = peer.attach_sender("big")
        self.assertEqual(attached[10], MESSAGE)   # max-message-size
        peer.read_until(wire.FLOW)
        before = server.peak()
        piece = b"\x00" * 60000
        peer.transfer(wire.data_section(b"\x00" * 100 * MIB)[:60000], more=True)
        for _ in range(MESSAGE // len(piece)):
            peer.transfer(piece, more=True, first=False)
        _, fields = peer.read_until(wire.DETACH)
        condition, description = wire.error_of(fields, 2)
        self.assertEqual(condition, "amqp:link:message-size-exceeded")
        self.assertIn("(%d bytes)" % MESSAGE, description)
        for _ in range(SENT // len(piece) // 8):   # the rest of the message is dropped as it comes
            peer.transfer(piece, more=True, first=False)
        peer.transfer(piece, more=False, first=False)
        self.assertLess(server.peak() - before, BOUND)
        # The connection lives on: a message of the right size on a new link is stored.
        peer.send(wire.frame(wire.DETACH, [0, True]))
        peer.attach_sender("big", handle=1)
        peer.read_until(wire.FLOW)
        peer.transfer(wire.data_section(b"fits"), more=False, handle=1, delivery_id=1)
        _, disposition = peer.read_until(wire.DISPOSITION)
        self.assertEqual(disposition[4].code, 0x24, disposition)   # accepted
        status, queue = server.api("GET", "/queues/big")
        self.assertEqual(queue["attributes"]["ApproximateNumberOfMessages"], "1")

    def test_token_request_past_its_limit_before_a_token(self):
        server = self.credentials()
        peer = self.session(server)
        attached = peer.attach_sender("$cbs")
        self.assertEqual(attached[10], TOKEN_REQUEST)
        peer.read_until(wire.FLOW)
        peer.transfer(b"\x00" * 60000, more=True)
        peer.transfer(b"\x00" * 60000, more=True, first=False)
        _, fields = peer.read_until(wire.DETACH)
        condition, description = wire.error_of(fields, 2)
        self.assertEqual(condition, "amqp:link:message-size-exceeded")
        self.assertIn("(%d bytes)" % TOKEN_REQUEST, description)

    def test_links_before_a_token_are_counted(self):
        peer = self.session(self.credentials())
        for handle in range(16):
            peer.attach_sender("$cbs", handle=handle)
        peer.send(wire.frame(wire.ATTACH, ["sender-16", 16, False, None, None, wire.Described(wire.SOURCE, ["x"]),
                                           wire.Described(wire.TARGET, ["$cbs"]), None, False, 0]))
        _, fields = peer.read_until(wire.CLOSE)
        condition, description = wire.error_of(fields, 0)
        self.assertEqual(condition, "amqp:resource-limit-exceeded", description)

    def test_connections_past_the_cap_are_closed_at_once(self):
        server = self.server("--amqp-max-connections", "2")
        held = [self.session(server) for _ in range(2)]
        refused = wire.Peer(server.amqp_port)
        self.addCleanup(refused.close)
        self.assertEqual(read_to_close(refused), b"", "a connection past the cap is closed without a byte")
        held[1].begin(channel=1)   # those within it are served on
        held[0].close()
        # The slot comes free once the broker has seen the close, which it
        # sees on its own thread: connect until a connection is served.
        for _ in range(1000):
            again = wire.Peer(server.amqp_port)
            self.addCleanup(again.close)
            try:
                again.sasl()
                break
            except (EOFError, ConnectionError, AssertionError):
                continue
        else:
            self.fail("no connection was served after one of the two closed")
        again.open()
        again.begin()

    def test_connections_without_their_open_are_closed_at_the_deadline(self):
        server = self.server("--amqp-open-timeout", "2")
        silent = wire.Peer(server.amqp_port)                 # connects and says nothing
        header_only = wire.Peer(server.amqp_port)            # the SASL header, then nothing
        header_only.send(b"AMQP\x03\x01\x00\x00")
        past_sasl = wire.Peer(server.amqp_port)              # SASL done, never the AMQP open
        past_sasl.sasl()
        opened = self.session(server)
        for peer in (silent, header_only, past_sasl):
            self.addCleanup(peer.close)
            read_to_close(peer)
        # A connection accepted after `opened` is closed after its deadline,
        # so `opened` has passed its own and is served on.
        later = wire.Peer(server.amqp_port)
        self.addCleanup(later.close)
        self.assertEqual(read_to_close(later), b"")
        self.assertIsNotNone(opened.begin(channel=1))


if __name__ == "__main__":
    unittest.main()
