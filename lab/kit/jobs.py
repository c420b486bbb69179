"""A job whose tools wait for each other, run through a harness's async loop the way a
frontend runs it: lesson 15's examples, and its graded sessions.

Two sides, and the line between them is the point:

- The **desk** (Desk) decides everything about the tools and writes it down: whether a tool
  that waits for another may go on ("meet c2: yes c1"), when one gives up, when one has
  finished, been cancelled, cleaned up. In a graded test the desk lives in the grader's
  process, so the tools' log is the grader's own account: the student's process can only ask
  the desk, and the desk refuses what no real run of the tools could do (a tool that finishes
  before it starts, or twice).
- The **step tool** (step_tool) is called on the desk's side, so the desk hears the harness
  call it; what it hands back is the call's work (step_work), a thin coroutine made where the
  harness runs (in a graded test, the student's process). The work asks the desk at every turn
  of the event loop and awaits between asks, so that a harness that runs its tools together
  lets them all ask, and one that runs them one after the other does not.

No clock is read anywhere. A tool that waits for another asks at most PATIENCE times, once a
turn of the event loop: run together, two tools meet within a few turns on any machine; run
one after the other, they never meet, however fast the machine. A tool that "hangs" waits the
same way, so a harness that never stops it still finishes, and the log shows it.

The job itself (run_job) is read step by step, as a frontend reads a run, on an event loop
that moves only while a step is taken (stepping.py): the caller's `loop`. A notebook's loop is
LocalLoop, made here; the grader's steps a harness in the student's process from its own side
(lab/testkit/student_loop.py), so that what the run handed out, what it raised and the state it
left are the harness's own answers to the grader, not a report worked out next to it.

    step_tool(desk)   a tool whose arguments say what it does: {"id": "c1", "meet": "c2",
                      "after": "c2", "hang": true, "fail": "why"} (step_work does it)
    note_tool(desk)   a plain (not async) tool that finishes the moment it is called
    run_job(harness, model, prompt, stop=..., then=..., steer_at=..., log=..., loop=...)
                      the job, read as a frontend reads it, stopped as `stop` says; plain
                      facts back
"""

from __future__ import annotations

import asyncio
import concurrent.futures
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from lab.kit.stepping import Stepper

PATIENCE = 100  # asks (one a turn of the event loop) a waiting tool makes before it gives up:
# tools run together meet within three (measured on lessons 15 and 16's finished files), and in a
# graded test each ask is a round trip to the grader
TIDY = 3  # turns a stopped tool takes to tidy up, as a process that is killed takes to exit
RUN_ENDED = "the run ended"  # the line written when the first run is over, however it ended
STEER = "Use spaces."  # what the user types when a job steers (steer_at)


# -- the desk: the tools' account, kept by whoever grades ---------------------------------------

class Desk:
    """What the job's tools lived through, decided and written down here.

    The tools' side, each a question or a report from one running tool, by its id: start(me),
    ask(me, what, other) -> "yes" | "wait" | "gave up", finish(me) -> its result,
    cancelled(me), cleaned(me). A step tool may start only once the harness has called it
    (its execute, which is the desk's own: _Called below), and once only; the note tool is
    the desk's own through and through.
    The reader's side: .lines (the log), .going (started, not cleaned up), .faults (what a
    tool reported that no run of it could do; each was refused with a ValueError).
    `on_start(me)` is called as a tool starts: a frontend's hand (steer, abort, cancel).
    """

    def __init__(self, log: Callable[[str], Any] | None = None, *,
                 on_start: Callable[[str], Any] | None = None, patience: int = PATIENCE) -> None:
        self._log, self._on_start, self._patience = log, on_start, patience
        self._lines: list[str] = []
        self._faults: list[str] = []
        self._called: set[str] = set()
        self._started: set[str] = set()
        self._finished: set[str] = set()
        self._going: set[str] = set()
        self._asked: dict[tuple[str, str, str], int] = {}
        self._decided: dict[tuple[str, str, str], str] = {}

    @property
    def lines(self) -> list[str]:
        return list(self._lines)

    @property
    def going(self) -> list[str]:
        return sorted(self._going)

    @property
    def faults(self) -> list[str]:
        return list(self._faults)

    def start(self, me: str) -> None:
        me = str(me)
        if me not in self._called:
            self._refuse(f"{me} started, but the harness had not called its tool")
        if me in self._started:
            self._refuse(f"{me} started a second time")
        self._started.add(me)
        self._going.add(me)
        self._note(f"start {me}")
        if self._on_start is not None:
            self._on_start(me)

    def ask(self, me: str, what: str, other: str | None = None) -> str:
        """May `me` go on? what="meet": once `other` has started; "after": once `other` has
        finished; "hang": never. "wait" until then, for at most `patience` asks."""
        me, other = str(me), str(other) if other is not None else ""
        self._going_now(me, f"asked whether it may go on ({what})")
        if what not in ("meet", "after", "hang"):
            self._refuse(f"{me} asked about {what!r}, which no step tool waits for")
        key = (me, what, other)
        if key in self._decided:
            return self._decided[key]
        ready = (other in self._started if what == "meet" else
                 other in self._finished if what == "after" else False)
        self._asked[key] = asks = self._asked.get(key, 0) + 1
        if not ready and asks < self._patience:
            return "wait"
        said = self._decided[key] = "yes" if ready else "gave up"
        self._note(f"was never stopped {me}" if what == "hang" else f"{what} {other}: {said} {me}")
        return said

    def finish(self, me: str) -> str:
        me = str(me)
        self._going_now(me, "finished")
        if me in self._finished:
            self._refuse(f"{me} finished a second time")
        self._finished.add(me)
        self._note(f"finish {me}")
        return f"step {me} done"

    def cancelled(self, me: str) -> None:
        me = str(me)
        self._going_now(me, "was cancelled")
        if me in self._finished:
            self._refuse(f"{me} was cancelled after it had finished")
        self._note(f"cancelled {me}")

    def cleaned(self, me: str) -> None:
        me = str(me)
        self._going_now(me, "cleaned up")
        self._going.discard(me)
        self._note(f"cleaned up {me}")

    def _call(self, me: str) -> None:
        """The harness called tool `me` (each call once)."""
        if me in self._called:
            self._refuse(f"the harness called {me}'s tool a second time")
        self._called.add(me)

    def _noted(self, me: str) -> str:
        """The note tool's whole run: called, started and finished at once."""
        self._call(me)
        self._started.add(me)
        self._finished.add(me)
        self._note(f"note {me}")
        return f"noted {me}"

    def _going_now(self, me: str, doing: str) -> None:
        if me not in self._going:
            self._refuse(f"{me} {doing} while it was not running" if me in self._started else
                         f"{me} {doing} before it had started")

    def _refuse(self, fault: str) -> None:
        self._faults.append(fault)
        raise ValueError(f"the lab's desk refused: {fault}")

    def _note(self, line: str) -> None:
        self._lines.append(line)
        if self._log is not None:
            self._log(line)


# -- the tools: called on the desk's side, working where the harness runs ------------------------

Work = Callable[[Desk, dict[str, Any]], Any]  # (desk, arguments) -> the step tool's coroutine


async def step_work(desk: Desk, arguments: dict[str, Any]) -> str:
    """What one call of the step tool does, where the harness runs: it asks `desk` at every
    turn and does what the desk says. Arguments: "id" names it; "meet": wait until that id
    has started too; "after": wait until that id has finished; "hang": wait until stopped;
    "fail": raise ValueError with that text. Stopped (cancelled), it takes TIDY turns to tidy
    up before its finally."""
    me = str(arguments["id"])
    desk.start(me)
    try:
        for what in ("meet", "after"):
            if what in arguments:
                await _until(desk, me, what, str(arguments[what]))
        if arguments.get("hang"):
            await _until(desk, me, "hang", None)
        if "fail" in arguments:
            raise ValueError(str(arguments["fail"]))
        return desk.finish(me)
    except asyncio.CancelledError:
        desk.cancelled(me)
        for _ in range(TIDY):  # tidying up takes a moment: whoever stopped it must wait
            await asyncio.sleep(0)
        raise
    finally:
        desk.cleaned(me)


async def _until(desk: Desk, me: str, what: str, other: str | None) -> None:
    while desk.ask(me, what, other) == "wait":
        await asyncio.sleep(0)


class _Called:
    """The step tool's execute: it lives with the desk, so the desk hears the harness call
    each tool itself, and it hands back the call's work (`work(desk, arguments)`, a coroutine
    made where the harness runs) for the harness to await."""

    def __init__(self, desk: Desk, work: Work) -> None:
        self._desk, self._work = desk, work

    def __call__(self, arguments: dict[str, Any]) -> Any:
        self._desk._call(str(arguments["id"]))
        return self._work(self._desk, arguments)


class _Noted:
    """The note tool's execute: the desk's own, plain (not async)."""

    def __init__(self, desk: Desk) -> None:
        self._desk = desk

    def __call__(self, arguments: dict[str, Any]) -> str:
        return self._desk._noted(str(arguments["id"]))


def step_tool(desk: Desk, work: Work = step_work) -> dict[str, Any]:
    """The `step` tool, async to whoever calls it: execute(arguments) is heard by `desk` and
    returns the call's work to await (step_work, made where the harness runs)."""
    return {"name": "step", "description": "Do one step of the job.",
            "parameters": {"type": "object", "properties": {"id": {"type": "string"}},
                           "required": ["id"]},
            "execute": _Called(desk, work)}


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
    def step_work(self, desk: Desk, arguments: dict[str, Any]) -> Any: ...


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

    def step_work(self, desk: Desk, arguments: dict[str, Any]) -> Any:
        return step_work(desk, arguments)

    def shut(self) -> None:
        self._thread.submit(self._stepper.shut).result()
        self._thread.shutdown()


# -- the job ----------------------------------------------------------------------------------

def run_job(harness: Any, model: Any, prompt: str, *, stop: Sequence[Any] | None = None,
            then: Sequence[str] = (), steer_at: str | None = None,
            log: Callable[[str], Any] | None = None, loop: Loop | None = None,
            patience: int = PATIENCE) -> dict[str, Any]:
    """Prompt a Harness of `harness` (a harness module) on `model`, with step_tool and
    note_tool, and read the run as a frontend does; then send each of `then`.

    `stop` ends the first run early: ["close", k] closes it after k events (aclose, as
    lab.drive does); ["cancel", id] cancels the task reading it when tool `id` starts;
    ["abort", id] calls the harness's abort() when tool `id` starts; ["break", type] stops
    reading at the first event of that type and lets go of the run without closing it.
    `steer_at` is a tool id: when it starts, the user steers (STEER). `loop` is the event loop
    the harness runs on (None: a LocalLoop of its own, shut at the end).

    Returns plain facts: the first run's events (type, call id, message); "ended": what the
    caller saw ("raised": "CancelledError", an exception's "Type: message", or None),
    is_running, the record, the tools still going and the requests sent, all just after the
    first run, and whether the harness was still running once the event loop had had PATIENCE
    more turns; the answer to each of `then`; the record at the end; the desk's lines and
    faults. RUN_ENDED is written in the lines the moment the first run is over for its caller.
    """
    return _on(loop, lambda chosen: _job(harness, chosen, model, prompt, list(stop or []),
                                         list(then), steer_at, log, patience))


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


def _job(harness, loop, model, prompt, stop, then, steer_at, log, patience):
    made: dict[str, Any] = {}  # the Harness, made below, before any tool can start

    def on_start(me):
        if stop[:1] == ["cancel"] and stop[1:2] == [me]:
            loop.cancel()
        if stop[:1] == ["abort"] and stop[1:2] == [me]:
            made["h"].abort()
        if steer_at == me:
            made["h"].steer(STEER)

    desk = Desk(log, on_start=on_start, patience=patience)
    tools = [step_tool(desk, loop.step_work), note_tool(desk)]
    h = made["h"] = harness.Harness(model, harness.SYSTEM, tools)
    events, raised = _read(loop, h.prompt(prompt), stop)
    desk._note(RUN_ENDED)
    ended = {"raised": raised, "is_running": h.is_running, "record": plain(h.messages),
             "going": desk.going, "requests": len(model.calls)}
    ended["running_later"] = _settled(loop, h)
    answers = [_answer(loop, h, words) for words in then]
    return {"events": events, "ended": ended, "answers": answers, "record": plain(h.messages),
            "lines": desk.lines, "faults": desk.faults}


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
