"""A job whose tools wait for each other, run through a harness's async loop the way a
frontend runs it: lesson 15's examples, and its graded sessions.

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
  resumed after it ended). Two tools can meet only if whatever runs them resumes each in turn,
  as the event loop does when the harness starts them together; run one after the other, they
  never can, whatever else the student's process says to the desk.

No clock is read anywhere. A tool that waits for another waits at most PATIENCE turns of the
event loop: run together, two tools meet within a few turns on any machine; run one after the
other, they never meet, however fast the machine. A tool that "hangs" waits the same way, so a
harness that never stops it still finishes, and the log shows it.

The job itself (run_job) is read step by step, as a frontend reads a run, on an event loop
that moves only while a step is taken (stepping.py): the caller's `loop`. A notebook's loop is
LocalLoop, made here; the grader's steps a harness in the student's process from its own side
(lab/testkit/student_loop.py), so that what the run handed out, what it raised and the state it
left are the harness's own answers to the grader, not a report worked out next to it.

    step_tool(desk)   a tool whose arguments say what it does: {"id": "c1", "meet": "c2",
                      "after": "c2", "hang": true, "fail": "why"}
    note_tool(desk)   a plain (not async) tool that finishes the moment it is called
    run_job(harness, model, prompt, stop=..., then=..., steer_at=..., log=..., loop=...)
                      the job, read as a frontend reads it, stopped as `stop` says; plain
                      facts back
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from lab.kit.stepping import Stepper

# Turns of the event loop a waiting tool waits before it gives up. Tools run together meet
# within three (measured on lessons 15 and 16's finished files); in a graded test each turn of
# a tool is a round trip to the grader.
PATIENCE = 100
TIDY = 3  # turns a stopped tool takes to tidy up, as a process that is killed takes to exit
RUN_ENDED = "the run ended"  # the line written when the first run is over, however it ended
SEAL = "#sealed:"  # before the mark on a result a graded job's desk hands out
STEER = "Use spaces."  # what the user types when a job steers (steer_at)


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


# -- the loop a job is read on ------------------------------------------------------------------

@dataclass(frozen=True)
class Reading:
    """A run read as a frontend reads it: the events it handed out, and what reading it raised
    ("CancelledError", "Type: message") or None."""
    events: list[Any]
    raised: str | None = None


@dataclass(frozen=True)
class Called:
    """A plain call of the harness (prompt()): what it returned, or what it raised."""
    value: Any = None
    raised: str | None = None


class Loop(Protocol):
    """The event loop a harness runs on, stepped from outside (stepping.Stepper's methods)."""

    def read(self, run: Any, most: int | None = None, until: str | None = None,
             close: bool = True) -> Reading: ...
    def call(self, function: Any, *args: Any) -> Called: ...
    def turns(self, count: int) -> None: ...
    def cancel(self) -> None: ...
    def drop(self, run: Any) -> None: ...
    def work(self, step: Any) -> Any: ...


class LocalLoop:
    """A Stepper in a thread of its own: a notebook's kernel runs an event loop in its main
    thread already, and a loop cannot be run inside another. The desk's on_start runs in that
    thread too (the tools call it), so cancel() is always called from inside a step."""

    def __init__(self) -> None:
        self._thread = concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="lab-job")
        self._stepper: Stepper = self._thread.submit(Stepper).result()

    def read(self, run: Any, most: int | None = None, until: str | None = None,
             close: bool = True) -> Reading:
        return Reading(**self._thread.submit(self._stepper.read, run, most, until,
                                             close).result())

    def call(self, function: Any, *args: Any) -> Called:
        return Called(**self._stepper.call(function, *args))

    def turns(self, count: int) -> None:
        self._thread.submit(self._stepper.turns, count).result()

    def cancel(self) -> None:
        self._stepper.cancel()

    def drop(self, run: Any) -> None:
        """Nothing to do: the caller lets go of its own reference."""

    def work(self, step: Any) -> Any:
        return Work(step)

    def shut(self) -> None:
        self._thread.submit(self._stepper.shut).result()
        self._thread.shutdown()


# -- the job ----------------------------------------------------------------------------------

def run_job(harness: Any, model: Any, prompt: str, *, stop: Sequence[Any] | None = None,
            then: Sequence[str] = (), steer_at: str | None = None,
            log: Callable[[str], Any] | None = None, loop: Loop | None = None,
            patience: int = PATIENCE, sealed: bool = False) -> dict[str, Any]:
    """Prompt a Harness of `harness` (a harness module) on `model`, with step_tool and
    note_tool, and read the run as a frontend does; then send each of `then`.

    `stop` ends the first run early: ["close", k] closes it after k events (aclose, as
    lab.drive does); ["cancel", id] cancels the task reading it when tool `id` starts;
    ["abort", id] calls the harness's abort() when tool `id` starts; ["break", type] stops
    reading at the first event of that type and lets go of the run without closing it.
    `steer_at` is a tool id: when it starts, the user steers (STEER). `loop` is the event loop
    the harness runs on (None: a LocalLoop of its own, shut at the end). `sealed`: every
    result the desk hands out carries a mark of its own (a graded job: see unsealed).

    Returns plain facts: the first run's events (type, call id, message); "ended": what the
    caller saw ("raised": "CancelledError", an exception's "Type: message", or None),
    is_running, the record, the tools still going and the requests sent, all just after the
    first run, and whether the harness was still running once the event loop had had PATIENCE
    more turns; the answer to each of `then`; the record at the end; the desk's lines and
    faults, and the result text it handed out for each call ("given"). RUN_ENDED is written in
    the lines the moment the first run is over for its caller.
    """
    return _on(loop, lambda chosen: _job(harness, chosen, model, prompt, list(stop or []),
                                         list(then), steer_at, log, patience, sealed))


def run_unstarted(harness: Any, model: Any, how: str, *,
                  loop: Loop | None = None) -> dict[str, Any]:
    """A run handed out by prompt() and then closed ("close") or dropped ("drop") before its
    first step: whether the harness was running before and after, and the next prompt's
    answer (or what prompt() raised)."""
    return _on(loop, lambda chosen: _unstarted(harness, chosen, model, how))


def run_twice(harness: Any, model: Any, *, loop: Loop | None = None) -> dict[str, Any]:
    """prompt() again after the first run's first event: what it raised (None: nothing), and
    the first run's remaining event types."""
    return _on(loop, lambda chosen: _twice(harness, chosen, model))


def _on(loop: Loop | None, job: Callable[[Loop], dict[str, Any]]) -> dict[str, Any]:
    if loop is not None:
        return job(loop)
    own = LocalLoop()
    try:
        return job(own)
    finally:
        own.shut()


def _job(harness, loop, model, prompt, stop, then, steer_at, log, patience, sealed):
    made: dict[str, Any] = {}  # the Harness, made below, before any tool can start

    def on_start(me):
        if stop[:1] == ["cancel"] and stop[1:2] == [me]:
            loop.cancel()
        if stop[:1] == ["abort"] and stop[1:2] == [me]:
            made["h"].abort()
        if steer_at == me:
            made["h"].steer(STEER)

    desk = Desk(log, on_start=on_start, patience=patience, sealed=sealed)
    tools = [step_tool(desk, loop.work), note_tool(desk)]
    h = made["h"] = harness.Harness(model, harness.SYSTEM, tools)
    events, raised = _read(loop, h.prompt(prompt), stop)
    desk._note(RUN_ENDED)
    ended = {"raised": raised, "is_running": h.is_running, "record": plain(h.messages),
             "going": desk.going, "requests": len(model.calls)}
    ended["running_later"] = _settled(loop, h)
    answers = [_answer(loop, h, words) for words in then]
    return {"events": events, "ended": ended, "answers": answers, "record": plain(h.messages),
            "lines": desk.lines, "faults": desk.faults, "given": desk.given}


def _read(loop: Loop, run: Any, stop: list[Any]) -> tuple[list[dict[str, Any]], str | None]:
    """The first run's events as a frontend reads them, stopped as `stop` says, and what
    reading raised: closed at the end, as lab.drive closes a run, except after a "break",
    which also lets go of the run."""
    how, at = (stop + [None, None])[:2]
    reading = loop.read(run, most=at if how == "close" else None,
                        until=at if how == "break" else None)
    if how == "break":
        loop.drop(run)
    return [described(event) for event in reading.events], reading.raised


def _settled(loop: Loop, h: Any) -> bool:
    """Whether the harness is still running after the event loop has had up to PATIENCE more
    turns, looked at after 1, 2, 4, ... of them."""
    given, more = 0, 1
    while h.is_running and given < PATIENCE:
        more = min(more, PATIENCE - given)
        loop.turns(more)
        given, more = given + more, more * 2
    return bool(h.is_running)


def _answer(loop: Loop, h: Any, words: str) -> str:
    """The harness's answer to a later prompt: the last message's error or text, read once the
    run is over; or what prompting or reading raised."""
    made = loop.call(h.prompt, words)
    raised = made.raised or loop.read(made.value).raised
    if raised:
        return f"raised {raised}"
    record = plain(h.messages)
    last = record[-1] if record else {}
    return last.get("error_message") or said(last)


def _unstarted(harness, loop, model, how):
    h = harness.Harness(model, harness.SYSTEM, [])
    run = h.prompt("Hello?")
    before = h.is_running
    if how == "close":
        loop.read(run, most=0)  # closed before its first step: aclose() and nothing else
    loop.drop(run)
    del run
    after = h.is_running
    return {"before": before, "after": after, "next_prompt": _answer(loop, h, "Are you there?")}


def _twice(harness, loop, model):
    h = harness.Harness(model, harness.SYSTEM, [])
    run = h.prompt("One.")
    first = loop.read(run, most=1, close=False)
    second = loop.call(h.prompt, "Two.")
    refused = None
    if second.raised:
        kind, _, message = second.raised.partition(": ")
        refused = message if kind == "RuntimeError" else second.raised
    else:
        loop.drop(second.value)
    rest = loop.read(run).events
    opened = [described(event)["type"] for event in first.events]
    return {"refused": refused, "first": opened[0] if opened else None,
            "rest": [described(event)["type"] for event in rest]}


def described(event: Any) -> dict[str, Any]:
    """An event as plain data: its type, and the call or message it is about."""
    if not isinstance(event, dict):
        return {"type": f"not an event: {type(event).__name__}"}
    said_: dict[str, Any] = {"type": event.get("type")}
    call = event.get("call")
    if isinstance(call, dict):
        said_["call"] = call.get("id")
    if "message" in event:
        said_["message"] = plain(event["message"])
    if event.get("type") == "agent_end":
        said_["messages"] = plain(event.get("messages"))
    return said_


def said(message: Any) -> str:
    """The words of a message: its text blocks joined, or its content when that is text."""
    content = message.get("content") if isinstance(message, dict) else None
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(str(block.get("text", "")) for block in content
                       if isinstance(block, dict) and block.get("type") == "text")
    return ""


def plain(value: Any) -> Any:
    """`value` as plain data (tuples as lists)."""
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    return value
