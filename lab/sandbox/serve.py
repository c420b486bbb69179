"""The student's side of one graded test: import harness.py and answer the grader.

Runs inside the sandbox, in a process the zygote forked for this test, with nothing of the
grader's in it: this package and the lab's student-facing modules are all it has. It imports
the harness, says which names it has, and then answers requests until the grader hangs up.
Every request carries an "id"; every answer echoes it:

    {"op": "get", "target": 0, "name": "SYSTEM"}        an attribute (0 is the harness module)
    {"op": "call", "target": 4, "args": [...], "kwargs": {...}}
    {"op": "next", "target": 5}                          the next item of an iterator
    {"op": "facts", "name": "repair_tool_history", "messages": [...]}
    {"op": "value", "name": "safe_trim", "args": [...]}
    {"op": "handed_out", "target": 4, "name": "messages"}    a caller's change to it (handout.py)
    {"op": "kit", "name": "Stepper"}     one of the kit's async helpers (KIT), to step a run
    {"op": "forget", "target": 5}        stop keeping object 5 alive (a run let go of)

A value that is not plain data stays here and goes back as a marker (protocol.Codec); the grader
turns it into a proxy, so a test can drive a Harness object that lives here. Objects of the
grader's (a scripted model, a tool's execute) arrive as markers too and are called back: the
process sends {"cb": n, "target": k, "method": name, "args": [...]} and serves the grader's
requests while it waits for {"cb": n, "ok": value}, because the grader may call in again (a
tool that steers the harness while it runs).

Nothing here is trusted by the grader: the student's code shares this process and can change
any of it. What the grader judges is the data it receives, checked on its own side, and what
it saw itself (every request to its model, every tool that ran).
"""

from __future__ import annotations

import faulthandler
import importlib.util
import linecache
import os
import signal
import sys
import threading
import traceback
from collections.abc import Mapping, Sequence
from types import CodeType, ModuleType
from typing import Any, TextIO

from . import handout, protocol
from .protocol import Codec, NotPlain

CLIP = 500  # characters kept of an exception's message or a line of source
HARNESS = "harness"
# What the grader may ask for of the student kit, to run an async harness here on an event
# loop it steps from its own side (lesson 15): the stepper, and the step tool's Work, which
# only asks the grader's desk. Nothing else of the kit is handed out this way.
KIT = {"Stepper": "lab.kit.stepping", "Work": "lab.kit.desk"}


class LabError(Exception):
    """Raised in the harness when something of the grader's it called (the model, a tool)
    raised; the message says what."""


class GraderObject:
    """A stand-in for an object of the grader's: calling it, or a method of it, is a round
    trip to the grader."""

    def __init__(self, server: Server, number: int, method: str | None = None) -> None:
        self._lab_server, self._lab_number, self._lab_method = server, number, method

    @property
    def _lab_marker(self):
        return {"$lab": "grader", "n": self._lab_number} if self._lab_method is None else None

    def __getattr__(self, name: str) -> GraderObject:
        if name.startswith("_"):
            raise AttributeError(name)
        return GraderObject(self._lab_server, self._lab_number, name)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self._lab_server.call_back(self._lab_number, self._lab_method, args, kwargs)

    def __repr__(self) -> str:
        return f"<the lab's object {self._lab_number}{'.' + self._lab_method if self._lab_method else ''}>"


class Server:
    def __init__(self, fd: int, stacks_fd: TextIO, harness_file: str) -> None:
        self.fd, self.stacks_fd, self.harness_file = fd, stacks_fd, harness_file
        self.codec = Codec("remote", lambda side, n: GraderObject(self, n))
        self._encode = protocol.encoder(self.codec.marker_for)
        self._callbacks = 0

    # -- the loop --------------------------------------------------------------------------

    def run(self, code: CodeType | None = None) -> None:
        # When the grader's time runs out, the zygote sends SIGUSR1: every thread's stack
        # goes to the grader, which names the line of the student's file the process was on.
        faulthandler.register(signal.SIGUSR1, file=self.stacks_fd, all_threads=True)
        module = _import(self.harness_file, code)
        if isinstance(module, dict):
            self.send(module)
            return
        self.codec.keep(module)  # number 0
        self.send(self.names(module))
        while (request := protocol.read_frame(self.fd)) is not None:
            self.send(self.answer(request))

    def send(self, answer: dict[str, Any]) -> None:
        """Write one answer; one JSON cannot hold, or too large, is reported as not plain."""
        try:
            frame = self._encode(answer)
        except BaseException as error:  # a circle, a depth, or the student's code raising
            frame = protocol.encode({"id": answer.get("id"), "not_plain": "the answer could not "
                                 f"be sent as JSON ({type(error).__name__}: {error})"[:CLIP]})
        if len(frame) > protocol.LARGEST:
            frame = protocol.encode({"id": answer.get("id"), "not_plain": f"the answer is "
                                 f"{len(frame)} bytes of JSON, more than the {protocol.LARGEST} "
                                 "the grader reads"})
        protocol.write_bytes(self.fd, frame)

    # -- requests --------------------------------------------------------------------------

    def answer(self, request: dict[str, Any]) -> dict[str, Any]:
        number = request.get("id")
        try:
            return {"id": number, **self._answer(request)}
        except NotPlain as error:
            return {"id": number, "not_plain": str(error)}
        except BaseException as error:  # the student's code may raise anything, SystemExit too
            return {"id": number, "raised": describe(error, self.harness_file)}

    def _answer(self, request):
        op, codec = request.get("op"), self.codec
        module = codec.kept(0)
        if op in ("facts", "value", "constant") and not hasattr(module, request["name"]):
            return {"missing": request["name"]}
        if op == "constant":
            return {"ok": getattr(module, request["name"])}
        if op == "kit":
            return {"ok": _kit(request.get("name"))}
        if op == "forget":
            codec.forget(request.get("target"))
            return {"ok": None}
        if op == "facts":
            return {"ok": self._facts(getattr(module, request["name"]), request["name"],
                                      request["messages"])}
        if op == "value":
            return {"ok": self._value(getattr(module, request["name"]), request["name"],
                                      codec.decode(request["args"]))}
        target = codec.kept(request.get("target"))
        if op == "get":
            if target is module and not hasattr(module, request["name"]):
                return {"missing": request["name"]}
            return {"ok": getattr(target, request["name"])}
        if op == "call":
            args, kwargs = codec.decode(request["args"]), codec.decode(request["kwargs"])
            return {"ok": target(*args, **kwargs)}
        if op == "handed_out":
            return {"ok": handout.handed_out(target, request["name"])}
        if op == "next":
            try:
                return {"ok": next(target)}
            except StopIteration:
                return {"done": True}
        raise NotPlain(f"no such request: {op!r}")

    def _facts(self, function, name, messages):
        """Call function(messages) and report what it returned and what it did to the list and
        the messages it was given, by identity."""
        given = tuple(messages)  # the objects handed over, kept alive so no id is reused
        returned = function(messages)
        where = {id(m): i for i, m in enumerate(given)}
        is_list = type(returned) is list
        origins = [where.get(id(m)) for m in returned] if is_list else []
        return {
            "type": type(returned).__name__,
            "returned": list(returned) if is_list else None,
            "origins": [i if i is not None and returned[k] is given[i] else None
                        for k, i in enumerate(origins)],
            "returned_input": returned is messages,
            "input_after": list(messages),
            "input_kept_objects": len(messages) == len(given) and all(
                a is b for a, b in zip(messages, given)),
        }

    def _value(self, function, name, args):
        returned = function(*args)
        return {"value": returned, "args_after": list(args),
                "returned_input": bool(args) and returned is args[0]}

    # -- calling the grader back -----------------------------------------------------------

    def call_back(self, number: int, method: str | None, args: Sequence[Any],
                  kwargs: Mapping[str, Any]) -> Any:
        self._callbacks += 1
        mine = self._callbacks
        self.send({"cb": mine, "target": number, "method": method,
                   "args": list(args), "kwargs": dict(kwargs)})
        while True:
            message = protocol.read_frame(self.fd)
            if message is None:
                os._exit(0)  # the grader has gone: nothing is left to answer
            if message.get("cb") == mine:
                if "raised" in message:
                    raise LabError(str(message["raised"])[:CLIP])
                return self.codec.decode(message.get("ok"))
            self.send(self.answer(message))  # the grader calls in while we wait

    @staticmethod
    def names(module: ModuleType) -> dict[str, Any]:
        """The ready answer: the module's names (or, when they cannot be listed, why)."""
        try:
            return {"ready": sorted(n for n in dict(vars(module)) if type(n) is str
                                    and not n.startswith("__")),
                    "thread": threading.main_thread().ident}
        except BaseException as error:  # the student replaced the module's __dict__, say
            return {"import_failed": describe(error, module.__file__)}  # type: ignore[arg-type]


def _kit(name):
    """The kit's `name`, one of KIT (imported on the first ask: most lessons never do)."""
    if type(name) is not str or name not in KIT:
        raise NotPlain(f"the kit hands out no {str(name)[:40]!r}")
    return getattr(importlib.import_module(KIT[name]), name)


def _import(path, code=None):
    """The harness module (run from `code`, its compiled source, when given), or the failure
    to import it as an answer for the grader."""
    spec = importlib.util.spec_from_file_location(HARNESS, path)
    module = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
    sys.modules[HARNESS] = module
    try:
        if code is None:
            spec.loader.exec_module(module)  # type: ignore[union-attr]
        else:
            exec(code, module.__dict__)
    except BaseException as error:  # the student's module may raise anything, SystemExit too
        return {"import_failed": describe(error, path)}
    return module


def describe(error: BaseException, student_file: str) -> dict[str, Any]:
    """An exception as plain facts: its type, its last line, and where in the student's file
    it came from (the innermost frame there), if it came from there at all."""
    try:
        lines = "".join(traceback.format_exception_only(type(error), error)).strip().splitlines()
    except BaseException:  # an exception whose str() itself raises: its type has to do
        lines = [type(error).__name__]
    facts = {"type": str(type(error).__name__)[:CLIP],
             "message": (lines[-1] if lines else type(error).__name__)[:CLIP],
             "exit_code": _exit_code(error) if isinstance(error, SystemExit) else None,
             "line": None, "function": None, "source": None}
    tb = error.__traceback__
    while tb is not None:
        if tb.tb_frame.f_code.co_filename == student_file:
            facts["line"], facts["function"] = tb.tb_lineno, tb.tb_frame.f_code.co_name
            facts["source"] = linecache.getline(student_file, tb.tb_lineno).strip()[:CLIP]
        tb = tb.tb_next
    return facts


def _exit_code(error):
    code = error.code
    return code if type(code) in (int, type(None)) else str(code)[:CLIP]
