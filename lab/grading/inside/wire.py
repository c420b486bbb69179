"""Framed JSON over a socket or pipe: four bytes of length, then that many bytes of JSON.

Both sides of the sandbox speak it, so it uses the standard library only. The reader trusts
nothing: a frame larger than LARGEST, bytes that are not JSON, JSON nested deeper than the
decoder will go, or JSON that is not an object all raise Garbled, which the grader reports as
the student's process sending something that is not an answer (never as its own failure).
"""

import json
import os
import struct

HEADER = struct.Struct(">I")
LARGEST = 4 * 1024 * 1024  # far more than any answer a lesson asks for; more is hostile


class Garbled(ValueError):
    """The bytes read are not a frame this channel sends."""


def encode(message, default=None):
    """One frame for `message`; `default` turns what JSON cannot hold into something it can
    (plain.Codec.marker_for)."""
    body = json.dumps(message, separators=(",", ":"), default=default).encode()
    return HEADER.pack(len(body)) + body


def write_frame(fd, message):
    write_bytes(fd, encode(message))


def write_bytes(fd, data):
    """Write all of `data` to `fd`, blocking."""
    data = memoryview(data)
    while data:
        data = data[os.write(fd, data):]


def decode(body):
    """The object a frame's body holds, or Garbled."""
    try:
        message = json.loads(body)
    except RecursionError:
        raise Garbled("a frame nested deeper than the grader reads") from None
    except ValueError as error:  # not UTF-8, or not JSON
        raise Garbled(f"a frame that is not JSON ({str(error)[:200]})") from None
    if type(message) is not dict:
        raise Garbled(f"a frame holding a {type(message).__name__}, not an object")
    return message


def read_frame(fd):
    """The next message from `fd`, blocking; None when the other end has closed."""
    header = _read_exactly(fd, HEADER.size)
    if header is None:
        return None
    (size,) = HEADER.unpack(header)
    if size > LARGEST:
        raise Garbled(f"a frame of {size} bytes, larger than the {LARGEST} allowed")
    body = _read_exactly(fd, size)
    return None if body is None else decode(body)


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
    """Collects bytes as they arrive and hands out whole frames (for a reader using select).
    It never holds more than one frame's worth: a larger announced size is Garbled at once."""

    def __init__(self):
        self._data = bytearray()
        self.marked = False  # whether the last frame handed out holds a marker (plain.py)

    def feed(self, chunk):
        self._data += chunk

    def next_frame(self):
        """The next whole frame received, as a dict; None when none is complete yet; Garbled
        when what arrived is not a frame."""
        if len(self._data) < HEADER.size:
            return None
        (size,) = HEADER.unpack_from(self._data)
        if size > LARGEST:
            raise Garbled(f"a frame of {size} bytes, larger than the {LARGEST} allowed")
        if len(self._data) < HEADER.size + size:
            return None
        body = bytes(self._data[HEADER.size:HEADER.size + size])
        del self._data[:HEADER.size + size]
        self.marked = b'"$lab"' in body
        return decode(body)
