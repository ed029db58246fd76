# SPDX-License-Identifier: MIT
"""AMQP 1.0 by hand, for peers no client library would play: the frames of
a SASL ANONYMOUS or PLAIN connection, sessions, links and transfers (whole,
split, or a frame header that lies about its size), and a reader of what the
broker answers. Only what the hostile-peer scenarios need; types per the
AMQP 1.0 specification, part 1 (encoding) and part 2 (framing)."""
import socket
import struct

OPEN, BEGIN, ATTACH, FLOW, TRANSFER, DISPOSITION, DETACH, END, CLOSE = range(0x10, 0x19)
SASL_MECHANISMS, SASL_INIT, SASL_OUTCOME = 0x40, 0x41, 0x44
SOURCE, TARGET = 0x28, 0x29


class Symbol(str):
    pass


class Described:
    def __init__(self, code, value):
        self.code, self.value = code, value

    def __repr__(self):
        return "Described(0x%x, %r)" % (self.code, self.value)


def encode(value):
    if value is None:
        return b"\x40"
    if value is True or value is False:
        return b"\x41" if value else b"\x42"
    if isinstance(value, Described):
        return b"\x00\x80" + struct.pack(">Q", value.code) + encode(value.value)
    if isinstance(value, int):
        return b"\x70" + struct.pack(">I", value)   # uint
    if isinstance(value, Symbol):
        data = value.encode()
        return b"\xb3" + struct.pack(">I", len(data)) + data
    if isinstance(value, str):
        data = value.encode()
        return b"\xb1" + struct.pack(">I", len(data)) + data
    if isinstance(value, bytes):
        return b"\xb0" + struct.pack(">I", len(value)) + value
    if isinstance(value, dict):
        items = b"".join(encode(k) + encode(v) for k, v in value.items())
        return b"\xd1" + struct.pack(">II", len(items) + 4, 2 * len(value)) + items
    if isinstance(value, list):
        items = b"".join(encode(item) for item in value)
        return b"\xd0" + struct.pack(">II", len(items) + 4, len(value)) + items
    raise TypeError(value)


def decode(data, at=0):
    """The value at `at` and the offset after it."""
    code = data[at]
    at += 1
    if code == 0x00:
        descriptor, at = decode(data, at)
        value, at = decode(data, at)
        return Described(descriptor, value), at
    fixed = {0x40: 0, 0x41: 0, 0x42: 0, 0x43: 0, 0x44: 0, 0x45: 0, 0x50: 1, 0x51: 1, 0x52: 1, 0x53: 1, 0x54: 1,
             0x55: 1, 0x56: 1, 0x60: 2, 0x61: 2, 0x70: 4, 0x71: 4, 0x72: 4, 0x73: 4, 0x80: 8, 0x81: 8, 0x82: 8,
             0x83: 8, 0x94: 16, 0x98: 16}
    if code in fixed:
        size = fixed[code]
        raw = data[at:at + size]
        value = {0x40: None, 0x41: True, 0x42: False, 0x43: 0, 0x44: 0, 0x45: []}.get(code)
        if size:
            value = int.from_bytes(raw, "big", signed=code in (0x51, 0x54, 0x55, 0x61, 0x71, 0x81))
            if code == 0x56:
                value = bool(value)
        return value, at + size
    if code in (0xa0, 0xa1, 0xa3, 0xb0, 0xb1, 0xb3):
        width = 1 if code < 0xb0 else 4
        size = int.from_bytes(data[at:at + width], "big")
        raw = data[at + width:at + width + size]
        at += width + size
        if code in (0xa0, 0xb0):
            return bytes(raw), at
        return (Symbol if code in (0xa3, 0xb3) else str)(raw.decode()), at
    if code in (0xc0, 0xc1, 0xd0, 0xd1):
        width = 1 if code < 0xd0 else 4
        size = int.from_bytes(data[at:at + width], "big")
        count = int.from_bytes(data[at + width:at + 2 * width], "big")
        end = at + width + size
        at += 2 * width
        items = []
        for _ in range(count):
            item, at = decode(data, at)
            items.append(item)
        if code in (0xc1, 0xd1):
            return dict(zip(items[0::2], items[1::2])), end
        return items, end
    if code in (0xe0, 0xf0):
        width = 1 if code == 0xe0 else 4
        size = int.from_bytes(data[at:at + width], "big")
        return None, at + width + size   # arrays: not needed here, skipped
    raise ValueError("AMQP type 0x%x" % code)


def frame(performative, fields, channel=0, payload=b"", sasl=False):
    body = encode(Described(performative, fields)) + payload
    return struct.pack(">IBBH", 8 + len(body), 2, 1 if sasl else 0, channel) + body


class Peer:
    """One TCP connection to the AMQP port, spoken to frame by frame."""

    def __init__(self, port, bound_seconds=60):
        self.socket = socket.create_connection(("127.0.0.1", port), timeout=bound_seconds)
        self.buffer = b""

    def close(self):
        self.socket.close()

    def send(self, data):
        self.socket.sendall(data)

    def read_exact(self, size):
        while len(self.buffer) < size:
            chunk = self.socket.recv(65536)
            if not chunk:
                raise EOFError("the broker closed the connection")
            self.buffer += chunk
        data, self.buffer = self.buffer[:size], self.buffer[size:]
        return data

    def read_frame(self):
        """(performative code, fields, the frame's whole size); (None, None, 8) for an empty frame."""
        size, offset, _kind, _channel = struct.unpack(">IBBH", self.read_exact(8))
        body = self.read_exact(size - 8)[offset * 4 - 8:]
        if not body:
            return None, None, size
        performative, _ = decode(body)
        return performative.code, performative.value, size

    def read_until(self, *codes):
        """Frames up to the first of `codes`: its fields."""
        while True:
            code, fields, _ = self.read_frame()
            if code in codes:
                return code, fields

    def sasl(self, mechanism="ANONYMOUS", response=None):
        self.send(b"AMQP\x03\x01\x00\x00")
        assert self.read_exact(8) == b"AMQP\x03\x01\x00\x00"
        self.read_until(SASL_MECHANISMS)
        self.send(frame(SASL_INIT, [Symbol(mechanism), response], sasl=True))
        _, outcome = self.read_until(SASL_OUTCOME)
        assert outcome[0] == 0, outcome

    def open(self):
        """Opens the connection after SASL; the broker's open fields."""
        self.send(b"AMQP\x00\x01\x00\x00")
        assert self.read_exact(8) == b"AMQP\x00\x01\x00\x00"
        self.send(frame(OPEN, ["hostile-peer", "localhost"]))
        return self.read_until(OPEN)[1]

    def begin(self, channel=0):
        self.send(frame(BEGIN, [None, 0, 2048, 2048], channel=channel))
        return self.read_until(BEGIN)[1]

    def attach_sender(self, address, handle=0, channel=0):
        """A link on which this peer sends to `address`; the broker's attach fields."""
        self.send(frame(ATTACH, ["sender-%d" % handle, handle, False, None, None,
                                 Described(SOURCE, ["hostile-peer"]), Described(TARGET, [address]),
                                 None, False, 0], channel=channel))
        return self.read_until(ATTACH)[1]

    def transfer(self, payload, more, handle=0, delivery_id=0, channel=0, first=True):
        fields = [handle, delivery_id, b"tag", 0, False, more] if first else [handle, None, None, None, None, more]
        self.send(frame(TRANSFER, fields, channel=channel, payload=payload))


def data_section(data):
    """A message of one data section holding `data`."""
    return b"\x00\x53\x75" + encode(data)


def error_of(fields, at):
    """(condition, description) of a detach, end or close's error field at `at`."""
    error = fields[at] if len(fields) > at else None
    if error is None:
        return None, None
    values = error.value
    return values[0], values[1] if len(values) > 1 else None
