"""Consume a run's events the way a frontend does, including the one that walks away."""

from __future__ import annotations

from collections.abc import AsyncGenerator, Iterable
from typing import Any

# A run's events: plain dicts such as {"type": "turn_start"}, whatever the harness sends.
Event = Any


async def drive(run: Iterable[Event] | AsyncGenerator[Event, Any],
                stop_after: int | None = None) -> list[Event]:
    """Take the events of `run` (a generator or an async generator) and return them as a list.

    With stop_after=k, take k events and then close the run, as a consumer that stops
    listening does: the run sees GeneratorExit at the point where it handed out event k.
    A run with fewer than k events is simply taken to its end.
    """
    if stop_after is not None and stop_after < 0:
        raise ValueError(f"stop_after must be 0 or more, not {stop_after}")
    events: list[Event] = []
    if isinstance(run, AsyncGenerator):
        try:
            while stop_after is None or len(events) < stop_after:
                try:
                    events.append(await run.__anext__())
                except StopAsyncIteration:
                    break
        finally:
            await run.aclose()
        return events
    run = iter(run)
    try:
        while stop_after is None or len(events) < stop_after:
            try:
                events.append(next(run))
            except StopIteration:
                break
    finally:
        if hasattr(run, "close"):
            run.close()
    return events
