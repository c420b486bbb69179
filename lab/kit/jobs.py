"""A job whose tools wait for each other, run through a harness's async loop the way a
frontend runs it: lesson 15's examples, and its graded sessions.

The job (run_job) prompts a Harness with desk.py's tools and reads the run as a frontend does,
on an event loop that moves only while a reading is taken (stepping.py): the caller's `loop`.
A notebook's loop is LocalLoop, made here; the grader's steps a harness in the student's
process from its own side (lab/testkit/student_loop.py), so that what the run handed out,
what it raised and the state it left are the harness's own answers to the grader, and the
tools' log is the desk's, not a report worked out next to the harness.

    run_job(harness, model, prompt, stop=..., then=..., steer_at=..., log=..., loop=...)
                      the job, read as a frontend reads it, stopped as `stop` says; plain
                      facts back
    run_unstarted, run_twice    a run closed or dropped before its first step; a second prompt
"""

from __future__ import annotations

import concurrent.futures
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from lab.kit.desk import PATIENCE, Desk, Work, note_tool, step_tool
from lab.kit.stepping import Stepper

RUN_ENDED = "the run ended"  # the line written when the first run is over, however it ended
STEER = "Use spaces."  # what the user types when a job steers (steer_at)


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
