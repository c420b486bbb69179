"""Every message that crosses a process boundary of a grading, and how it crosses: the one
module the host, the worker and the sandbox all import (standard library only: the sandbox runs
`python -I -S` on the bundle, where it is lab_inside.protocol).

    host -> worker      a Job (one frame on the worker's standard input; one after another for
                        a kept worker, lab-check --watch)
    worker -> host      one Frame a grading on the results pipe: a Problem (nothing could be
                        graded, and why) or a Report (each test's result, the record of
                        outcome.py, under the test's name, never pytest's node id; the layers
                        the sandbox had in force)
    worker -> zygote    a Control request (fork, dump, status, reset, reload) on its control
                        socket, after the sandbox's Plan; the zygote answers each in one message
    worker <-> test     on one test's channel: a Request (get, call, next, kit, forget) and
                        its Answer (ok, done, missing, raised, not_plain); a Callback the
                        student's process makes on an object of the grader's, and its reply

Frames are four bytes of length, then that many bytes of JSON. The reader trusts nothing: a
frame larger than LARGEST, bytes that are not JSON, JSON nested deeper than the decoder will go,
or JSON that is not an object all raise Garbled, which the grader reports as the student's
process sending something that is not an answer (never as its own failure). A value the JSON
cannot hold crosses as a marker (Codec, below).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import asdict, dataclass, field
from typing import Any, TypedDict

import json
import os
import struct


# -- the messages ------------------------------------------------------------------------------

@dataclass(frozen=True)
class Limits:
    seconds: float = 5.0      # for one answer of the student's code, its import included
    memory_mb: int = 1024     # what the student's code may allocate on top of its process's own


@dataclass(frozen=True)
class Job:
    """One grading, worked out by the host before any of it runs; the worker derives nothing
    (not from the command line, not from the lesson's files: the host read the lesson once and
    put here all the worker needs of it)."""
    snapshot: str            # the grader's private copy of the student's file
    lesson: str              # the lesson's id as the course names it ("10", "B")
    tests: list[str]         # test files to run (the lesson's own tests.py, or those named)
    isolation: str           # bubblewrap, uid or none (isolation.py)
    seed: int                # every variation of the tests comes from it
    select: str = ""         # a pytest -k expression, or "" for every test
    public: str = ""         # a folder of the host's for what anyone may read (the bundle):
                             # its path is on the zygote's command line, so not the private one
    limits: Limits = field(default_factory=Limits)
    needs: list[str] = field(default_factory=list)      # names every test needs (requires)
    withheld: list[str] = field(default_factory=list)   # grader-only files this copy lacks
    gaps: dict[str, Any] = field(default_factory=dict)  # the manifest's gaps (student fixture)
    starter: str = ""        # the lesson's starter file, named in a missing name's message
    folder: str = ""         # the lesson's folder (a checkpoint's copy checks a file against it)
    share: list[int] = field(default_factory=lambda: [0, 1])  # [part, parts]: this worker runs
                             # every parts-th test from the part-th (lab-check --watch's workers)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Job:
        return cls(**dict(data, limits=Limits(**data["limits"])))


class Report(TypedDict):
    tests: list[dict[str, Any]]  # each test's result: TestResult.as_dict (outcome.py)
    seconds: float
    layers: list[str]  # the walls in force (isolation.layers)


class Problem(TypedDict):
    problem: str      # why nothing could be graded


def report(tests: Iterable[dict[str, Any]], seconds: float, layers: Iterable[str]) -> Report:
    return Report(tests=list(tests), seconds=seconds, layers=list(layers))


PROBLEM = 20_000  # characters of a Problem's sentence: it may quote the student's own values,
                 # and JSON writes a character in up to twelve bytes, well within LARGEST


def clipped(text: object, most: int) -> str:
    """`text` cut to `most` characters, saying how many more there were."""
    text = str(text)
    return text if len(text) <= most else text[:most] + f" [... {len(text) - most} more]"


def problem(sentence: str) -> Problem:
    return Problem(problem=clipped(sentence, PROBLEM))


def layers_of(frame: Mapping[str, Any]) -> list[str]:
    """The layers a Report names, or [] when they are not a list of text."""
    layers = frame.get("layers")
    return layers if type(layers) is list and all(type(x) is str for x in layers) else []


CONTROL = ("fork", "dump", "status", "reset", "reload")   # worker -> zygote, each answered
REQUESTS = ("get", "call", "next", "kit", "forget")      # test -> student's process
ANSWERS = ("ok", "done", "missing", "raised", "not_plain")
FACTS = {"type", "message", "exit_code", "line", "function", "source"}  # of a raised answer


class Plan(TypedDict):
    """The zygote's first message: what the sandbox holds and where (isolation.launch)."""
    submission: str
    scratch: str
    tmp: str          # "own" (a private /tmp), "mine" (this user's files in /tmp are swept), ""
    readable: list[str]
    writable: list[str]
    landlock: bool


# -- framing -------------------------------------------------------------------------------------

HEADER = struct.Struct(">I")
LARGEST = 4 * 1024 * 1024  # far more than any answer a lesson asks for; more is hostile


class Garbled(ValueError):
    """The bytes read are not a frame this channel sends."""


def encode(message: object, default: Callable[[Any], Any] | None = None) -> bytes:
    """One frame for `message`; `default` turns what JSON cannot hold into something it can
    (Codec.marker_for)."""
    body = json.dumps(message, separators=(",", ":"), default=default).encode()
    return HEADER.pack(len(body)) + body


def encoder(default: Callable[[Any], Any] | None = None) -> Callable[[object], bytes]:
    """`encode` for one `default`, its JSON encoder made once: for a channel's many frames."""
    dumps = json.JSONEncoder(separators=(",", ":"), default=default).encode

    def encode_one(message):
        body = dumps(message).encode()
        return HEADER.pack(len(body)) + body

    return encode_one


def write_frame(fd: int, message: object) -> None:
    write_bytes(fd, encode(message))


def write_bytes(fd: int, data: bytes | bytearray | memoryview) -> None:
    """Write all of `data` to `fd`, blocking."""
    data = memoryview(data)
    while data:
        data = data[os.write(fd, data):]


def decode(body: bytes | bytearray | str) -> dict[str, Any]:
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


def read_frame(fd: int) -> dict[str, Any] | None:
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

    def __init__(self) -> None:
        self._data = bytearray()
        self.marked = False  # whether the last frame handed out holds a marker (Codec, below)

    def feed(self, chunk: bytes) -> None:
        self._data += chunk

    def next_frame(self) -> dict[str, Any] | None:
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


# -- plain data, and markers for everything else -------------------------------------------------
#
# A check made on an object the student built can be fooled by the object (an __eq__ that always
# says yes, a list subclass that hides items). A check made on JSON cannot: what the grader
# judges is always decoded from JSON, so made of exact dicts, lists, strings, numbers, booleans
# and None. A value crosses as data when JSON can hold it (a tuple arrives as a list, a dict
# subclass as the dict its items make); anything else (a harness object, a generator, a
# function) stays on its own side and crosses as a marker, {"$lab": side, "n": number}, that the
# other side turns into a proxy: calling the proxy calls the object, over the channel.
#
# Both sides use a Codec: `mine` is the side whose objects it keeps in its table, `proxy(side,
# number)` makes the stand-in for a marker; `marker_for` is the `default` of the JSON encoder.

DEPTH = 40  # far deeper than any message; deeper means a structure that contains itself
MARK = "$lab"


class NotPlain(ValueError):
    """A value that cannot cross; the message says where."""


FORGOTTEN = object()  # what a Codec's table holds where it has let an object go


class Codec:
    def __init__(self, mine: str, proxy: Callable[[str, int], object]) -> None:
        self.mine, self._proxy = mine, proxy
        self._objects: list[object] = []
        self._numbers: dict[int, int] = {}

    def kept(self, number: object) -> Any:
        """The object of this side's table that marker `number` stands for."""
        if (type(number) is not int or not 0 <= number < len(self._objects)
                or self._objects[number] is FORGOTTEN):
            raise NotPlain(f"no object numbered {number!r} was handed over")
        return self._objects[number]

    def forget(self, number: Any) -> None:
        """Let go of the object numbered `number`: this side's table no longer keeps it alive
        (a run the grader stops reading without closing it, lesson 15). Asked for again, the
        number is refused as one never handed over."""
        value = self.kept(number)
        self._objects[number] = FORGOTTEN  # (an int in range: kept checked it)
        self._numbers.pop(id(value), None)

    def keep(self, value: object) -> int:
        """`value`'s number in this side's table, adding it if new."""
        number = self._numbers.get(id(value))
        if number is None or self._objects[number] is not value:
            number = len(self._objects)
            self._objects.append(value)
            self._numbers[id(value)] = number
        return number

    def marker_for(self, value: object) -> dict[str, Any]:
        """JSON's `default`: the marker for anything JSON cannot hold as data (kept in this
        side's table), or, for a stand-in of the other side's object, that object's own."""
        proxied = getattr(value, "_lab_marker", None)
        if type(proxied) is dict:
            return proxied  # a stand-in for the other side's object goes home as its marker
        return {MARK: self.mine, "n": self.keep(value)}

    def decode(self, value: Any, depth: int = 0) -> Any:
        """JSON data from the other side as values here: markers become proxies (or, for this
        side's own objects, the objects themselves)."""
        if depth >= DEPTH + 2:
            raise NotPlain(f"data nested more than {DEPTH} deep")
        kind = type(value)
        if kind is list:
            return [self.decode(item, depth + 1) for item in value]
        if kind is dict:
            if MARK in value:
                side, number = value.get(MARK), value.get("n")
                if set(value) != {MARK, "n"} or type(number) is not int:
                    raise NotPlain(f"a malformed marker {str(value)[:80]}")
                return self.kept(number) if side == self.mine else self._proxy(side, number)
            return {key: self.decode(item, depth + 1) for key, item in value.items()}
        return value

