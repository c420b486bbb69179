"""A job whose tools wait for each other, run through a harness's async loop the way a
frontend runs it: lesson 15's examples, and its graded sessions.

The tools are `async def`, so they run in the harness's own event loop (in a graded test, in
the student's process), and they report everything that happens to them through `log`, a
callable that takes one line ("start c1", "meet c2: yes c1", "finish c1", "cancelled c1",
"cleaned up c1"). In a graded test `log` is the grader's, so the grader keeps its own account
of what the tools lived through; in a notebook it is a list's append.

No clock is read anywhere. A tool that waits for another waits a number of turns of the event
loop (PATIENCE), never seconds: two tools run at the same time meet within a few turns on any
machine, and two tools run one after the other never meet, however fast the machine. A tool
that "hangs" waits the same way, so a harness that never stops it still finishes.

    step_tool(desk)   a tool whose arguments say what it does: {"id": "c1", "meet": "c2",
                      "after": "c2", "hang": true, "fail": "why"}
    note_tool(desk)   a plain (not async) tool that finishes the moment it is called
    run_job(harness, model, prompt, stop=..., then=..., steer_at=..., log=...)  the job, read
                      as a frontend reads it, stopped as `stop` says; plain facts back. It
                      runs its own event loop (in a thread of its own inside a notebook,
                      whose kernel runs one already), so it can be called from plain code.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
from collections.abc import Callable, Sequence
from typing import Any

from lab.kit.drive import drive

PATIENCE = 2000  # turns of the event loop a tool waits for something before it gives up
TIDY = 3  # turns a stopped tool takes to tidy up, as a process that is killed takes to exit
RUN_ENDED = "the run ended"  # the line logged when the first run is over, however it ended


class Desk:
    """What the job's tools lived through: `log` hears every line; `started`, `finished` and
    `going` say where each tool is now (the tools wait on them)."""

    def __init__(self, log: Callable[[str], Any] | None = None) -> None:
        self.lines: list[str] = []
        self.log = log
        self.started: set[str] = set()
        self.finished: set[str] = set()
        self.going: set[str] = set()

    def note(self, line: str) -> None:
        self.lines.append(line)
        if self.log is not None:
            self.log(line)


async def waited(condition: Callable[[], bool]) -> bool:
    """Whether `condition()` came true within PATIENCE turns of the event loop."""
    for _ in range(PATIENCE):
        if condition():
            return True
        await asyncio.sleep(0)
    return condition()


def step_tool(desk: Desk, on_start: Callable[[str], Any] | None = None) -> dict[str, Any]:
    """The `step` tool, async. Its arguments say what it does: "id" names it in the log;
    "meet": wait until that id has started too; "after": wait until that id has finished;
    "hang": wait until stopped; "fail": raise ValueError with that text. Stopped (cancelled),
    it takes TIDY turns to tidy up before its finally. `on_start(id)` is called as it starts
    (a frontend's hand: steer, abort, cancel)."""

    async def execute(arguments: dict[str, Any]) -> str:
        me = str(arguments["id"])
        desk.started.add(me)
        desk.going.add(me)
        desk.note(f"start {me}")
        if on_start is not None:
            on_start(me)
        try:
            for key, done in (("meet", desk.started), ("after", desk.finished)):
                if key in arguments:
                    other = arguments[key]
                    met = await waited(lambda: other in done)
                    desk.note(f"{key} {other}: {'yes' if met else 'gave up'} {me}")
            if arguments.get("hang"):
                await waited(lambda: False)
                desk.note(f"was never stopped {me}")
            if "fail" in arguments:
                raise ValueError(str(arguments["fail"]))
            desk.finished.add(me)
            desk.note(f"finish {me}")
            return f"step {me} done"
        except asyncio.CancelledError:
            desk.note(f"cancelled {me}")
            for _ in range(TIDY):  # tidying up takes a moment: whoever stopped it must wait
                await asyncio.sleep(0)
            raise
        finally:
            desk.going.discard(me)
            desk.note(f"cleaned up {me}")

    return {"name": "step", "description": "Do one step of the job.",
            "parameters": {"type": "object", "properties": {"id": {"type": "string"}},
                           "required": ["id"]},
            "execute": execute}


def note_tool(desk: Desk) -> dict[str, Any]:
    """The `note` tool: a plain function, not async, done the moment it is called."""

    def execute(arguments: dict[str, Any]) -> str:
        me = str(arguments["id"])
        desk.started.add(me)
        desk.finished.add(me)
        desk.note(f"note {me}")
        return f"noted {me}"

    return {"name": "note", "description": "Take a note.",
            "parameters": {"type": "object", "properties": {"id": {"type": "string"}},
                           "required": ["id"]},
            "execute": execute}


def run_job(harness: Any, model: Any, prompt: str, *, stop: Sequence[Any] | None = None,
            then: Sequence[str] = (), steer_at: str | None = None,
            log: Callable[[str], Any] | None = None) -> dict[str, Any]:
    """Prompt a Harness of `harness` (a harness module) on `model`, with step_tool and
    note_tool, and read the run as a frontend does; then send each of `then`.

    `stop` ends the first run early: ["close", k] closes it after k events (aclose, as
    lab.drive does); ["cancel", id] cancels the task reading it when tool `id` starts;
    ["abort", id] calls the harness's abort() when tool `id` starts; ["break", type] breaks
    out of `async for` at the first event of that type and does not close the run.
    `steer_at` is a tool id: when it starts, the user steers ("Use spaces.").

    Returns plain facts: the first run's events (type, call id, message), what the caller
    saw ("raised": "CancelledError", an exception's type and text, or None), is_running and
    the record just after the first run, whether the harness was running after the event loop
    had PATIENCE more turns, the answer to each of `then`, and the record at the end.
    RUN_ENDED is logged the moment the first run is over for its caller.
    """
    return _run(_job(harness, model, prompt, list(stop or []), list(then), steer_at, Desk(log)))


def _run(coroutine):
    """asyncio.run(coroutine), in a thread of its own when this thread already runs an event
    loop (a notebook's kernel does), since asyncio.run cannot be nested."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(coroutine)
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coroutine).result()


async def _job(harness, model, prompt, stop, then, steer_at, desk):
    reading: dict[str, Any] = {}
    h: Any = None  # the harness's Harness, made below, before any tool can start

    def on_start(me):
        if stop[:1] == ["cancel"] and stop[1] == me:
            reading["task"].cancel()
        if stop[:1] == ["abort"] and stop[1] == me:
            h.abort()
        if steer_at == me:
            h.steer("Use spaces.")

    h = harness.Harness(model, harness.SYSTEM, [step_tool(desk, on_start), note_tool(desk)])
    events: list[dict[str, Any]] = []
    reading["task"] = asyncio.ensure_future(_read(h.prompt(prompt), events, stop))
    raised = None
    try:
        await reading["task"]
    except asyncio.CancelledError:
        raised = "CancelledError"
    except Exception as error:  # the harness's code: what it raised is the answer
        raised = f"{type(error).__name__}: {error}"
    desk.note(RUN_ENDED)
    ended = {"raised": raised, "is_running": h.is_running, "record": _plain(h.messages),
             "going": sorted(desk.going)}
    await waited(lambda: not h.is_running)
    ended["running_later"] = h.is_running
    answers = []
    for words in then:
        try:
            await drive(h.prompt(words))
            last = h.messages[-1]
            answers.append(last.get("error_message") or harness.text_of(last))
        except Exception as error:
            answers.append(f"raised {type(error).__name__}: {error}")
    return {"events": events, "ended": ended, "answers": answers,
            "record": _plain(h.messages), "lines": list(desk.lines)}


async def _read(run, events, stop):
    """Read the run's events into `events`, as a frontend does, stopping as `stop` says."""
    if stop[:1] == ["break"]:
        async for event in run:
            events.append(described(event))
            if event["type"] == stop[1]:
                break
        return
    close_after = stop[1] if stop[:1] == ["close"] else None
    for event in await drive(run, stop_after=close_after):
        events.append(described(event))


def described(event: dict[str, Any]) -> dict[str, Any]:
    """An event as plain data: its type, and the call or message it is about."""
    said: dict[str, Any] = {"type": event["type"]}
    if "call" in event:
        said["call"] = event["call"]["id"]
    if "message" in event:
        said["message"] = _plain(event["message"])
    if event["type"] == "agent_end":
        said["messages"] = _plain(event["messages"])
    return said


def run_unstarted(harness: Any, model: Any, how: str) -> dict[str, Any]:
    """A run handed out by prompt() and then closed ("close") or dropped ("drop") before its
    first step: whether the harness was running before and after, and the next prompt's
    answer (or what prompt() raised)."""
    return _run(_unstarted(harness, model, how))


async def _unstarted(harness, model, how):
    h = harness.Harness(model, harness.SYSTEM, [])
    run = h.prompt("Hello?")
    before = h.is_running
    if how == "close":
        await run.aclose()
    del run
    after = h.is_running
    try:
        await drive(h.prompt("Are you there?"))
        next_prompt = harness.text_of(h.messages[-1])
    except Exception as error:
        next_prompt = f"raised {type(error).__name__}: {error}"
    return {"before": before, "after": after, "next_prompt": next_prompt}


def run_twice(harness: Any, model: Any) -> dict[str, Any]:
    """prompt() again after the first run's first event: what it raised (None: nothing), and
    the first run's remaining event types."""
    return _run(_twice(harness, model))


async def _twice(harness, model):
    h = harness.Harness(model, harness.SYSTEM, [])
    run = h.prompt("One.")
    first = await run.__anext__()
    try:
        h.prompt("Two.")
        refused = None
    except RuntimeError as error:
        refused = str(error)
    rest = await drive(run)
    return {"refused": refused, "first": first["type"], "rest": [e["type"] for e in rest]}


def _plain(value: Any) -> Any:
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    return value
