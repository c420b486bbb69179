"""An event loop that runs only while someone takes a step of a run: lesson 15's async harness,
read one event at a time by a caller that is not itself async.

A frontend reads an async harness with `async for` inside an event loop that never stops. The
lab reads it step by step instead: a Stepper owns one loop, and each of its methods runs that
loop until one thing has happened (the run's next event, the run closed, a number of turns
gone by) and then stops it. Between two steps nothing in the loop moves, so whatever the
tools do happens inside a step, in the same order on any machine, however slowly the caller
takes its steps. The grader steps a harness in the student's process this way, one request a
step (lab/testkit/student_loop.py); a notebook steps one in a thread of its own (jobs.py).

Each step answers with plain data: a reading, {"events": [...], "raised": None, or
"CancelledError", or "Type: message"}; a call, {"value": v} or {"raised": "Type: message"};
some turns, {"end": True}.
"""

from __future__ import annotations

import asyncio
import copy
from collections.abc import Callable, Coroutine
from typing import Any

Outcome = dict[str, Any]


def _said(error: BaseException) -> str:
    """"Type: message" for an exception, even one whose str() raises."""
    try:
        text = str(error)
    except Exception:
        text = "(its message could not be read)"
    return f"{type(error).__name__}: {text}" if text else type(error).__name__


def _as_handed_out(event: Any) -> Any:
    """The event as it was when handed out: a frontend sees it then, not as later changed."""
    try:
        return copy.deepcopy(event)
    except Exception:
        return event


async def _read(run: Any, most: int | None, until: str | None, close: bool) -> Outcome:
    events: list[Any] = []
    try:
        try:
            while most is None or len(events) < most:
                try:
                    event = await run.__anext__()
                except StopAsyncIteration:
                    break
                events.append(_as_handed_out(event))
                if until is not None and isinstance(event, dict) and event.get("type") == until:
                    close = False  # a frontend that breaks out of `async for` closes nothing
                    break
        finally:
            if close:
                await run.aclose()  # as lab.drive closes a run, however the reading ended
    except asyncio.CancelledError:
        return {"events": events, "raised": "CancelledError"}
    except Exception as error:  # the harness's code: what it raised is the answer
        return {"events": events, "raised": _said(error)}
    return {"events": events, "raised": None}


async def _turns(count: int) -> Outcome:
    for _ in range(count):
        await asyncio.sleep(0)
    return {"end": True}


class Stepper:
    """One event loop, run only while a step is being taken (see the module's docstring)."""

    def __init__(self) -> None:
        self._loop = asyncio.new_event_loop()
        self._task: asyncio.Task[Outcome] | None = None

    def read(self, run: Any, most: int | None = None, until: str | None = None,
             close: bool = True) -> Outcome:
        """Read `run` (an async generator) as a frontend does, in one task, the loop running
        all the while: events until the run ends, `most` have been read, or one of type
        `until` has been (then the run is left open, as by a `break` out of `async for`);
        then close it (aclose) unless `close` is False. {"events": [...], "raised": what
        reading raised ("CancelledError" when the task was cancelled and the run let the
        cancellation out, "Type: message" for an Exception) or None}."""
        return self._take(_read(run, most, until, close))

    def turns(self, count: int) -> Outcome:
        """Run the loop for `count` turns: time for what was scheduled (a run the garbage
        collector handed back to the loop, a tool still tidying up) to happen."""
        return self._take(_turns(max(0, min(int(count), 100_000))))

    def call(self, function: Callable[..., Any], *args: Any) -> Outcome:
        """function(*args), not awaited (prompt() hands out a run; it may refuse to)."""
        try:
            return {"value": function(*args)}
        except Exception as error:
            return {"raised": _said(error)}

    def cancel(self) -> bool:
        """Cancel the step now being taken, as a frontend cancels the task reading a run: the
        run hears a CancelledError where it is waiting. False when no step is being taken."""
        if self._task is None:
            return False
        return self._task.cancel()

    def shut(self) -> None:
        """Finish what is left (runs never closed, then the loop)."""
        if not self._loop.is_closed():
            self._loop.run_until_complete(self._loop.shutdown_asyncgens())
            self._loop.close()

    def _take(self, step: Coroutine[Any, Any, Outcome]) -> Outcome:
        if self._task is not None:
            step.close()
            return {"raised": "RuntimeError: a step was asked for while another was being taken"}
        self._task = self._loop.create_task(step)
        try:
            return self._loop.run_until_complete(self._task)
        finally:
            self._task = None
