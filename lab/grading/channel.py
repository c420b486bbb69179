"""Framed JSON over a pair of pipe ends: four bytes of length, then that many bytes of JSON."""

import json
import os
import struct

HEADER = struct.Struct(">I")
LARGEST = 256 * 1024 * 1024  # a frame larger than this is a broken or hostile sender


def encode(message):
    body = json.dumps(message, separators=(",", ":")).encode()
    return HEADER.pack(len(body)) + body


def write_frame(fd, message):
    data = memoryview(encode(message))
    while data:
        data = data[os.write(fd, data):]


def read_frame(fd):
    """The next message from `fd`, blocking; None when the other end has closed."""
    header = _read_exactly(fd, HEADER.size)
    if header is None:
        return None
    (size,) = HEADER.unpack(header)
    body = _read_exactly(fd, size)
    return None if body is None else json.loads(body)


def _read_exactly(fd, size):
    chunks, left = [], size
    while left:
        chunk = os.read(fd, min(left, 1 << 20))
        if not chunk:
            return None
        chunks.append(chunk)
        left -= len(chunk)
    return b"".join(chunks)


class FrameBuffer:
    """Collects bytes as they arrive and hands out whole frames (for a reader using select)."""

    def __init__(self):
        self._data = bytearray()

    def feed(self, chunk):
        self._data += chunk

    def frames(self):
        while len(self._data) >= HEADER.size:
            (size,) = HEADER.unpack_from(self._data)
            if size > LARGEST:
                raise ValueError(f"a frame of {size} bytes is larger than the {LARGEST} allowed")
            if len(self._data) < HEADER.size + size:
                return
            body = bytes(self._data[HEADER.size:HEADER.size + size])
            del self._data[:HEADER.size + size]
            yield json.loads(body)
