"""Lesson 15's tools, and the desk that runs them: two tools that wait for each other, so that
whoever reads the tools' log can tell whether a harness ran the calls of one reply together.

Two sides, and the line between them is the point:

- The **desk** (Desk) runs every tool's whole life and writes it down: when it starts,
  whether one that waits for another may go on ("meet c2: yes c1") or gives up, when it
  finishes, fails, is cancelled and tidies up, when it ends. In a graded test the desk lives in
  the grader's process, so the tools' log is the grader's own account.
- Where the harness runs (in a graded test, the student's process) there is only the step
  tool's **Work**: the awaitable a call of the tool hands back. It decides nothing and
  remembers nothing: each time the event loop resumes it, it asks the desk what to do (yield a
  turn, return, raise). The harness calls each tool's execute, which is the desk's own, so the
  desk hears every call, and refuses what no run of the tools could do (a tool called twice,
  resumed after it ended, started once the run's tools are being stopped). Two tools can meet
  only if whatever runs them resumes each in turn, as the event loop does when the harness
  starts them together; run one after the other, they never can, whatever else the student's
  process says to the desk. A graded desk seals every result it hands out (see `Desk`).

No clock is read anywhere. A tool that waits for another waits at most PATIENCE turns of the
event loop: run together, two tools meet within a few turns on any machine; run one after the
other, they never meet, however fast the machine. A tool that "hangs" waits the same way, so a
harness that never stops it still finishes, and the log shows it.

    step_tool(desk)   a tool whose arguments say what it does: {"id": "c1", "meet": "c2",
                      "after": "c2", "hang": true, "fail": "why"}
    note_tool(desk)   a plain (not async) tool that finishes the moment it is called
"""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Callable
from typing import Any

# Turns of the event loop a waiting tool waits before it gives up. Tools run together meet
# within three (measured on lessons 15 and 16's finished files); in a graded test each turn of
# a tool is a round trip to the grader.
PATIENCE = 100
TIDY = 3  # turns a stopped tool takes to tidy up, as a process that is killed takes to exit
SEAL = "#sealed:"  # before the mark on a result a graded job's desk hands out


# -- the desk: the tools' account, kept by whoever grades ---------------------------------------

class Desk:
    """What the job's tools lived through, decided and written down here.

    A tool's whole life is run here. The harness calls a tool's execute, which is the desk's
    own (_Called, _Noted below), so the desk hears each call; a step tool's answer is a Work,
    an awaitable whose every resumption is one question to the desk's side (_Step): start,
    go on or wait a turn, give up, finish, fail, hear a cancellation and tidy up, end. What
    runs where the harness runs decides nothing and remembers nothing.

    The reader's side: .lines (the log), .going (started, not ended), .faults (what no run of
    the tools could do, each refused with a ValueError to whoever asked), .given (the result
    text handed out for each call: `sealed`, each carries a mark made for it alone, so that
    the grader can tell a result a tool gave from one written in its words). `on_start(me)` is
    called as a tool starts: a frontend's hand (steer, abort, cancel).
    """

    def __init__(self, log: Callable[[str], Any] | None = None, *,
                 on_start: Callable[[str], Any] | None = None, patience: int = PATIENCE,
                 sealed: bool = False) -> None:
        self._log, self._on_start, self._patience, self._sealed = log, on_start, patience, sealed
        self._given: dict[str, str] = {}  # call id -> the result text the desk handed out
        self._lines: list[str] = []
        self._faults: list[str] = []
        self._called: set[str] = set()
        self._started: set[str] = set()
        self._finished: set[str] = set()
        self._going: set[str] = set()

    @property
    def lines(self) -> list[str]:
        return list(self._lines)

    @property
    def going(self) -> list[str]:
        return sorted(self._going)

    @property
    def faults(self) -> list[str]:
        return list(self._faults)

    @property
    def given(self) -> dict[str, str]:
        """{call id: the result text the desk handed out for it} (finished, failed, noted)."""
        return dict(self._given)

    def _call(self, me: str) -> None:
        """The harness called tool `me` (each call once)."""
        if me in self._called:
            self._refuse(f"the harness called {me}'s tool a second time")
        self._called.add(me)

    def _start(self, me: str) -> None:
        if any(line.startswith("cancelled ") for line in self._lines):
            self._refuse(f"{me} was started after another tool of the run had been stopped")
        self._started.add(me)
        self._going.add(me)
        self._note(f"start {me}")
        if self._on_start is not None:
            self._on_start(me)

    def _ready(self, what: str, other: str) -> bool:
        return (other in self._started if what == "meet" else
                other in self._finished if what == "after" else False)

    def _finish(self, me: str) -> str:
        self._finished.add(me)
        self._note(f"finish {me}")
        return self._give(me, f"step {me} done")

    def _give(self, me: str, text: str) -> str:
        """`text` as the desk hands it out for call `me`: sealed, in a graded job, with a mark
        made here for this one result, so that a result nobody was handed cannot be written
        (see unsealed); as it is in a notebook."""
        given = self._given[me] = f"{text} {SEAL}{secrets.token_hex(8)}" if self._sealed else text
        return given

    def _end(self, me: str) -> None:
        self._going.discard(me)
        self._note(f"cleaned up {me}")

    def _noted(self, me: str) -> str:
        """The note tool's whole run: called, started and finished at once."""
        self._call(me)
        self._started.add(me)
        self._finished.add(me)
        self._note(f"note {me}")
        return self._give(me, f"noted {me}")

    def _refuse(self, fault: str) -> None:
        self._faults.append(fault)
        raise ValueError(f"the lab's desk refused: {fault}")

    def _note(self, line: str) -> None:
        self._lines.append(line)
        if self._log is not None:
            self._log(line)


class _Step:
    """One call of the step tool, run on the desk's side, one resumption at a time. Each of
    step, thrown and closed answers its Work with what to do: {"turn": True} (let the event
    loop turn once), {"done": result}, {"fail": why} (raise ValueError), {"raise": True}
    (raise what was thrown in)."""

    def __init__(self, desk: Desk, me: str, arguments: dict[str, Any]) -> None:
        self._desk, self._me = desk, me
        self._waits = [(what, str(arguments[what])) for what in ("meet", "after")
                       if what in arguments] + ([("hang", "")] if arguments.get("hang") else [])
        self._fail = str(arguments["fail"]) if "fail" in arguments else None
        self._state, self._asks, self._tidy = "new", 0, 0

    def step(self) -> dict[str, Any]:
        desk, me = self._desk, self._me
        if self._state == "ended":
            desk._refuse(f"{me} was resumed after it had ended")
        if self._state == "new":
            self._state = "running"
            desk._start(me)
        if self._state == "tidying":
            self._tidy -= 1
            if self._tidy > 0:
                return {"turn": True}
            return self._ended({"raise": True})
        while self._waits:
            what, other = self._waits[0]
            if not desk._ready(what, other):
                self._asks += 1
                if self._asks < desk._patience:
                    return {"turn": True}
            said = "yes" if desk._ready(what, other) else "gave up"
            desk._note(f"was never stopped {me}" if what == "hang" else
                       f"{what} {other}: {said} {me}")
            self._waits.pop(0)
            self._asks = 0
        if self._fail is not None:
            return self._ended({"fail": desk._give(me, self._fail)})
        return self._ended({"done": desk._finish(me)})

    def thrown(self, kind: str) -> dict[str, Any]:
        """An exception of type `kind` thrown in where the work waits (a cancellation)."""
        if self._state == "new":  # never started: there is nothing of it to stop
            self._state = "ended"
            return {"raise": True}
        if self._state == "ended":
            self._desk._refuse(f"{self._me} was stopped after it had ended")
        if self._state == "running" and kind == "CancelledError":
            self._desk._note(f"cancelled {self._me}")
            self._state, self._tidy = "tidying", TIDY  # tidying up takes a moment
            return {"turn": True}
        return self._ended({"raise": True})

    def closed(self) -> None:
        """The coroutine awaiting the work was closed (GeneratorExit) where it waited."""
        if self._state in ("running", "tidying"):
            self._ended({})
        self._state = "ended"

    def _ended(self, said: dict[str, Any]) -> dict[str, Any]:
        self._state = "ended"
        self._desk._end(self._me)
        return said


# -- the tools: called on the desk's side, worked where the harness runs -------------------------

class Work:
    """The step tool's answer to one call, where the harness runs: an awaitable that decides
    nothing. Each time the event loop resumes it (send, throw, close), it asks its step
    (a _Step, on the desk's side) what to do, and does it: yield one turn, return the result,
    raise. Two tools can therefore get on together only if whatever runs them resumes each in
    turn, as an event loop does when the harness starts them together."""

    def __init__(self, step: Any) -> None:
        self._step = step

    def __await__(self) -> Work:
        return self

    def __iter__(self) -> Work:
        return self

    def __next__(self) -> None:
        return self._do(self._step.step())

    def send(self, value: Any) -> None:
        return self._do(self._step.step())

    def throw(self, kind: Any, value: Any = None, traceback: Any = None) -> None:
        error = value if isinstance(value, BaseException) else (
            kind if isinstance(kind, BaseException) else kind() if value is None else kind(value))
        said = self._step.thrown(type(error).__name__)
        if said.get("raise"):
            raise error
        return self._do(said)

    def close(self) -> None:
        self._step.closed()

    @staticmethod
    def _do(said: Any) -> None:
        if not isinstance(said, dict):
            raise RuntimeError(f"the lab's desk answered {str(said)[:80]}")
        if said.get("turn"):
            return None  # a bare yield: the event loop runs whatever else is ready, then us
        if "done" in said:
            raise StopIteration(said["done"])
        if "fail" in said:
            raise ValueError(said["fail"])
        raise asyncio.CancelledError()


Make = Callable[[Any], Any]  # (the desk's _Step) -> its Work, made where the harness runs


class _Called:
    """The step tool's execute: the desk's own, so the desk hears the harness call each tool;
    it hands back the call's Work (made by `make` where the harness runs) to await."""

    def __init__(self, desk: Desk, make: Make) -> None:
        self._desk, self._make = desk, make

    def __call__(self, arguments: dict[str, Any]) -> Any:
        me = str(arguments["id"])
        self._desk._call(me)
        return self._make(_Step(self._desk, me, arguments))


class _Noted:
    """The note tool's execute: the desk's own, plain (not async)."""

    def __init__(self, desk: Desk) -> None:
        self._desk = desk

    def __call__(self, arguments: dict[str, Any]) -> str:
        return self._desk._noted(str(arguments["id"]))


def step_tool(desk: Desk, make: Make = Work) -> dict[str, Any]:
    """The `step` tool, async to whoever calls it. Its arguments say what it does: "id" names
    it; "meet": wait until that id has started too; "after": wait until that id has finished;
    "hang": wait until stopped; "fail": raise ValueError with that text. Stopped (cancelled),
    it takes TIDY turns to tidy up. Every turn of it is decided by `desk`."""
    return {"name": "step", "description": "Do one step of the job.",
            "parameters": {"type": "object", "properties": {"id": {"type": "string"}},
                           "required": ["id"]},
            "execute": _Called(desk, make)}


def note_tool(desk: Desk) -> dict[str, Any]:
    """The `note` tool: a plain function, not async, done the moment it is called."""
    return {"name": "note", "description": "Take a note.",
            "parameters": {"type": "object", "properties": {"id": {"type": "string"}},
                           "required": ["id"]},
            "execute": _Noted(desk)}
