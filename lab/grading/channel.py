"""Framed JSON over a pair of pipe ends: four bytes of length, then that many bytes of JSON.

The grader reads the child's frames with a FrameBuffer, which trusts nothing: a frame larger
than LARGEST, bytes that are not JSON, or JSON that is not an object all raise Garbled, for the
grader to report as the student's process sending something that is not an answer.
"""

import json
import os
import struct

HEADER = struct.Struct(">I")
LARGEST = 32 * 1024 * 1024  # far more than any answer; more is a broken or hostile sender


class Garbled(ValueError):
    """The bytes read are not a frame this channel sends."""


def encode(message):
    body = json.dumps(message, separators=(",", ":")).encode()
    return HEADER.pack(len(body)) + body


def write_frame(fd, message):
    write_bytes(fd, encode(message))


def write_bytes(fd, data):
    """Write all of `data` to `fd`, blocking."""
    data = memoryview(data)
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
        """Every whole frame received so far, each a dict; Garbled at the first that is not."""
        while len(self._data) >= HEADER.size:
            (size,) = HEADER.unpack_from(self._data)
            if size > LARGEST:
                raise Garbled(f"a frame of {size} bytes, larger than the {LARGEST} allowed")
            if len(self._data) < HEADER.size + size:
                return
            body = bytes(self._data[HEADER.size:HEADER.size + size])
            del self._data[:HEADER.size + size]
            try:
                message = json.loads(body)
            except ValueError as error:  # not UTF-8, or not JSON
                raise Garbled(f"a frame that is not JSON ({error})") from None
            if type(message) is not dict:
                raise Garbled(f"a frame holding a {type(message).__name__}, not an object")
            yield message
